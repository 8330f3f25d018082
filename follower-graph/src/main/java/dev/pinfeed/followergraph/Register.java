package dev.pinfeed.followergraph;

/**
 * The last-writer-wins state of one edge, (follower, user) or (follower, board): followed or
 * unfollowed, as of the newest event seen for it. Unfollows are kept (tombstones) so an older
 * follow that arrives late cannot resurrect the edge.
 */
record Register(boolean follow, Version version) {

    /** {@code <35-digit sort key><F|U>}: the Lua compare-and-set looks only at the fixed-width prefix. */
    String encode() {
        return version.sortKey() + (follow ? 'F' : 'U');
    }

    static Register decode(String s) {
        if (s == null || s.isEmpty()) return null;
        char state = s.charAt(Version.SORT_KEY_LENGTH);
        if (state != 'F' && state != 'U') throw new IllegalStateException("corrupt edge register: " + s);
        return new Register(state == 'F', Version.ofSortKey(s));
    }

    boolean newerThan(Register other) {
        return other == null || version.compareTo(other.version) > 0;
    }

    long at() {
        return version.occurredAt();
    }
}
