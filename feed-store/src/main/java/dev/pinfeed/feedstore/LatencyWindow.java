package dev.pinfeed.feedstore;

import java.util.Arrays;

/**
 * The last {@code capacity} latencies of a cluster (a ring buffer) and a quantile over them, by
 * nearest rank. The quantile sorts a copy, so callers ask for it every so many samples, not per call.
 */
final class LatencyWindow {

    private final long[] ring;
    private long count;

    LatencyWindow(int capacity) {
        this.ring = new long[capacity];
    }

    synchronized void record(long nanos) {
        ring[(int) (count++ % ring.length)] = nanos;
    }

    /** Samples seen so far (not capped at the capacity). */
    synchronized long count() {
        return count;
    }

    /** The {@code q} quantile of the samples held (nearest rank: the smallest sample with at least q of them at or below it); -1 when empty. */
    long quantile(double q) {
        long[] held;
        synchronized (this) {
            held = Arrays.copyOf(ring, (int) Math.min(count, ring.length));
        }
        if (held.length == 0) return -1;
        Arrays.sort(held);
        int rank = (int) Math.ceil(q * held.length);
        return held[Math.max(0, Math.min(held.length, rank) - 1)];
    }
}
