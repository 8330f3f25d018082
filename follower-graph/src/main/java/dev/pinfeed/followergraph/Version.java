package dev.pinfeed.followergraph;

import java.util.Comparator;

/**
 * The order of events on one edge: event time, then event id (unique, so two different events never
 * tie). The newest version of an edge wins, whatever order events arrive in.
 */
public record Version(long occurredAt, long eventId) implements Comparable<Version> {

    /** 15 decimal digits of milliseconds: year 33658. */
    static final long MAX_OCCURRED_AT = 999_999_999_999_999L;
    /** Length of {@link #sortKey()}. */
    static final int SORT_KEY_LENGTH = 35;

    private static final Comparator<Version> ORDER =
            Comparator.comparingLong(Version::occurredAt).thenComparingLong(Version::eventId);

    @Override
    public int compareTo(Version o) {
        return ORDER.compare(this, o);
    }

    /**
     * Fixed-width digits whose string order is the version order (Lua compares these; its numbers
     * are doubles and would lose event-id bits). The id is flipped to unsigned so negative ids sort first.
     */
    String sortKey() {
        String id = Long.toUnsignedString(eventId ^ Long.MIN_VALUE);
        return String.format("%015d", occurredAt) + "0".repeat(20 - id.length()) + id;
    }

    static Version ofSortKey(String key) {
        if (key.length() < SORT_KEY_LENGTH) throw new IllegalArgumentException("not a version: " + key);
        return new Version(Long.parseLong(key.substring(0, 15)),
                Long.parseUnsignedLong(key.substring(15, SORT_KEY_LENGTH)) ^ Long.MIN_VALUE);
    }
}
