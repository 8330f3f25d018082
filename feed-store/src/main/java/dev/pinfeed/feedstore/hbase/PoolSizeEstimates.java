package dev.pinfeed.feedstore.hbase;

import dev.pinfeed.feedstore.Source;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * One writer's estimate of each pool's size, in memory: how many entries it wrote to the pool since
 * the pool was last checked, plus the rows that check kept. It replaces a durable size counter
 * (an HBase Increment per entry: a locked read-modify-write that cost the region server more than
 * the entry's two puts together, docs/benchmarks.md). Like that counter it errs high: replays and
 * re-scores count, removals don't. Pools hash into a fixed array of slots, so two pools sharing a
 * slot add up (a check comes early) until one of them is checked and the slot is set to its rows;
 * the other's count is then forgotten, and its next check can come up to one maximum late. Nor can
 * it know what was in a pool before this writer first wrote to it (another process, or this one
 * before a restart): a pool starts at 0 here, so it may hold up to one maximum more than the bound
 * before its first check. Thread-safe.
 */
final class PoolSizeEstimates {

    private final AtomicIntegerArray slots;
    private final int mask;

    /** {@code 2^bits} slots of 4 bytes each. */
    PoolSizeEstimates(int bits) {
        if (bits < 1 || bits > 28) throw new IllegalArgumentException("bits must be in [1, 28]: " + bits);
        this.slots = new AtomicIntegerArray(1 << bits);
        this.mask = (1 << bits) - 1;
    }

    /** Counts {@code n} entries written to the pool; returns its estimate after them. */
    int add(long user, Source source, int n) {
        int slot = slot(user, source);
        return slots.accumulateAndGet(slot, n, (a, b) -> (int) Math.min(Integer.MAX_VALUE, (long) a + b));
    }

    /** After a check: the pool holds {@code rows} now (a colliding pool's count is forgotten with it). */
    void set(long user, Source source, int rows) {
        slots.set(slot(user, source), rows);
    }

    int slot(long user, Source source) {
        long h = user * 0x9E3779B97F4A7C15L + source.code(); // spread ids that differ in a few bits
        h ^= h >>> 31;
        h *= 0xBF58476D1CE4E5B9L;
        h ^= h >>> 29;
        return (int) h & mask;
    }
}
