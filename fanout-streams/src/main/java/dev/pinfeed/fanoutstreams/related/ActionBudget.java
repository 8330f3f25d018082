package dev.pinfeed.fanoutstreams.related;

import java.util.concurrent.atomic.LongAdder;

/**
 * How many of a user's likes and saves per minute ask for related pins ({@code related.max-actions-per-minute}): the ones
 * past it ask nothing. One action sends up to {@code related.max-per-pin} pool writes, so a producer liking pins by the
 * thousand a minute for a few users would otherwise keep feed-worker and HBase busy with pools that turn over faster than
 * anyone reads them, and starve everyone else's fan-out and reads.
 *
 * <p>Counted per minute of the action's own time ({@code occurredAt}), not the wall clock, so a replay of the likes topic
 * sheds the same actions as the first pass did, not all of them. The counts live in this process only (a fixed table of
 * {@code 2^SLOT_BITS} slots, one user each): a restart or another user taking a user's slot starts him afresh, so a user
 * may get past the bound, never below it. An action older than the minute his slot counts is let through.
 */
public final class ActionBudget {

    private static final int SLOT_BITS = 16;
    private static final long MINUTE_MS = 60_000;

    private final int perMinute;
    private final long[] users = new long[1 << SLOT_BITS];
    private final long[] minutes = new long[1 << SLOT_BITS];
    private final int[] counts = new int[1 << SLOT_BITS];
    private final LongAdder shed = new LongAdder();

    public ActionBudget(int perMinute) {
        if (perMinute < 1) throw new IllegalArgumentException("a budget of at least one action a minute: " + perMinute);
        this.perMinute = perMinute;
    }

    /** Whether the user's action at {@code atMillis} may ask for related pins; counts it when it may, and the shed ones. */
    public synchronized boolean tryTake(long user, long atMillis) {
        int slot = slot(user);
        long minute = Math.floorDiv(atMillis, MINUTE_MS);
        if (users[slot] != user || minutes[slot] < minute) {
            users[slot] = user;
            minutes[slot] = minute;
            counts[slot] = 1;
            return true;
        }
        if (minutes[slot] > minute) return true; // late: its minute is no longer counted
        if (counts[slot] < perMinute) {
            counts[slot]++;
            return true;
        }
        shed.increment();
        return false;
    }

    /** Actions that asked nothing because their user was past the bound, since this process started. */
    public long shed() {
        return shed.sum();
    }

    private static int slot(long user) {
        long h = user * 0x9E3779B97F4A7C15L; // Fibonacci hashing: ids that differ in low bits spread over the table
        return (int) (h >>> (64 - SLOT_BITS));
    }
}
