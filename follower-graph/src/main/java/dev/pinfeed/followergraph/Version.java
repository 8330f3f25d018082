package dev.pinfeed.followergraph;

import java.util.Comparator;

/**
 * The order of events on one edge: event time, then event id (unique, so two different events never
 * tie). The newest version of an edge wins, whatever order events arrive in.
 */
public record Version(long occurredAt, long eventId) implements Comparable<Version> {

    /** The latest event time a command may carry: 15 decimal digits of milliseconds (year 33658), as stores keep it. */
    public static final long MAX_OCCURRED_AT = 999_999_999_999_999L;

    private static final Comparator<Version> ORDER =
            Comparator.comparingLong(Version::occurredAt).thenComparingLong(Version::eventId);

    @Override
    public int compareTo(Version o) {
        return ORDER.compare(this, o);
    }
}
