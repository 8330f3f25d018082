package dev.pinfeed.feedstore;

import java.util.Arrays;

/**
 * The last {@code capacity} latencies of a cluster (a ring buffer) and a quantile over them, by
 * nearest rank. Callers ask for the quantile every so many samples, not per call. A high quantile (the
 * speculative cutoff's p99.9: the 11th largest of 10 000) is found in one pass with a heap of the few
 * largest samples; sorting the whole window for it cost a tenth of feed-service's CPU under a read load.
 */
final class LatencyWindow {

    /** Up to this many samples at or above the answer, a heap pass; beyond it a sort. */
    private static final int HEAP_MAX = 256;

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
        int rank;
        synchronized (this) {
            int n = (int) Math.min(count, ring.length);
            if (n == 0) return -1;
            rank = Math.max(1, Math.min(n, (int) Math.ceil(q * n)));
            int fromTop = n - rank + 1; // the answer is the fromTop-th largest
            if (fromTop <= HEAP_MAX) return largest(ring, n, fromTop);
            held = Arrays.copyOf(ring, n);
        }
        Arrays.sort(held);
        return held[rank - 1];
    }

    /** The k-th largest of {@code values[0, n)}, with a min-heap of the k largest seen. */
    static long largest(long[] values, int n, int k) {
        long[] heap = new long[k];
        int size = 0;
        for (int i = 0; i < n; i++) {
            long v = values[i];
            if (size < k) {
                int at = size++;
                heap[at] = v;
                while (at > 0 && heap[(at - 1) / 2] > heap[at]) {
                    swap(heap, at, (at - 1) / 2);
                    at = (at - 1) / 2;
                }
            } else if (v > heap[0]) {
                heap[0] = v;
                int at = 0;
                while (true) {
                    int smallest = at;
                    int l = 2 * at + 1;
                    int r = l + 1;
                    if (l < k && heap[l] < heap[smallest]) smallest = l;
                    if (r < k && heap[r] < heap[smallest]) smallest = r;
                    if (smallest == at) break;
                    swap(heap, at, smallest);
                    at = smallest;
                }
            }
        }
        return heap[0];
    }

    private static void swap(long[] a, int i, int j) {
        long t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
