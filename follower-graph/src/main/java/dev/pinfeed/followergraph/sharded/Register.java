package dev.pinfeed.followergraph.sharded;

import dev.pinfeed.followergraph.Version;

/**
 * The last-writer-wins state of one edge, (follower, user) or (follower, board): followed or
 * unfollowed, as of the newest event seen for it. Unfollows are kept (tombstones) so an older
 * follow that arrives late cannot resurrect the edge. Owns the stored text of a register.
 */
public record Register(boolean follow, Version version) {

    /**
     * Length of the version prefix of a stored register: a backend's compare-and-set compares only
     * these characters, as strings (Lua's numbers are doubles and would lose event-id bits).
     */
    public static final int VERSION_KEY_LENGTH = 35;

    /** Length of the version key's first part: the register's time ({@link #at}) in decimal, zero-padded. */
    public static final int AT_LENGTH = 15;

    /** The character after the version key of a register that says follow. */
    public static final char FOLLOW = 'F';

    /** {@code <35-digit version key><F|U>}. */
    String encode() {
        return versionKey(version) + (follow ? FOLLOW : 'U');
    }

    static Register decode(String s) {
        if (s == null || s.isEmpty()) return null;
        char state = s.charAt(VERSION_KEY_LENGTH);
        if (state != FOLLOW && state != 'U') throw new IllegalStateException("corrupt edge register: " + s);
        return new Register(state == FOLLOW, ofVersionKey(s));
    }

    boolean newerThan(Register other) {
        return other == null || version.compareTo(other.version) > 0;
    }

    long at() {
        return version.occurredAt();
    }

    /**
     * Fixed-width digits whose string order is the version order: 15 of occurredAt (at most
     * {@link Version#MAX_OCCURRED_AT}), 20 of the event id flipped to unsigned so negative ids sort first.
     */
    static String versionKey(Version v) {
        String at = Long.toString(v.occurredAt()); // 0 ≤ occurredAt ≤ MAX_OCCURRED_AT: at most AT_LENGTH digits
        String id = Long.toUnsignedString(v.eventId() ^ Long.MIN_VALUE);
        return "0".repeat(AT_LENGTH - at.length()) + at + "0".repeat(VERSION_KEY_LENGTH - AT_LENGTH - id.length()) + id;
    }

    static Version ofVersionKey(String key) {
        if (key.length() < VERSION_KEY_LENGTH) throw new IllegalArgumentException("not a version: " + key);
        return new Version(Long.parseLong(key.substring(0, AT_LENGTH)),
                Long.parseUnsignedLong(key.substring(AT_LENGTH, VERSION_KEY_LENGTH)) ^ Long.MIN_VALUE);
    }
}
