package dev.pinfeed.idallocator;

import java.util.Collection;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Sharded IDs for a service, in-process: one {@link LocalIdSequence} per (shard, type), created on
 * first use, all leasing from one {@link SequenceStore} with background prefetch.
 * Close it to stop the prefetch threads (the store is closed by its owner).
 */
public final class ShardedIdAllocator implements AutoCloseable {

    public static final int DEFAULT_BLOCK_SIZE = 1000;
    /** Lease the next block once this fraction of the current one is used (Leaf uses 10%). */
    public static final double DEFAULT_PREFETCH_AT = 0.1;
    /**
     * Leases in flight at once from the background: enough to keep a store's connections busy when a batch leases ahead
     * on hundreds of shards, without a thread per shard.
     */
    static final int BACKGROUND_LEASES = 8;

    private final SequenceStore store;
    private final int blockSize;
    private final double prefetchAt;
    private final ThreadPoolExecutor prefetcher;
    /** [typeId][shard]; a type's row of 65536 slots exists only once that type is used. */
    private final AtomicReferenceArray<AtomicReferenceArray<LocalIdSequence>> sequences =
            new AtomicReferenceArray<>(ShardedId.MAX_TYPE + 1);

    public ShardedIdAllocator(SequenceStore store, int blockSize) {
        this(store, blockSize, DEFAULT_PREFETCH_AT);
    }

    public ShardedIdAllocator(SequenceStore store, int blockSize, double prefetchAt) {
        if (store == null) throw new IllegalArgumentException("store is missing");
        if (blockSize < 1 || blockSize > SequenceStore.MAX_BLOCK_SIZE) {
            throw new IllegalArgumentException("block size " + blockSize + " is out of range 1-" + SequenceStore.MAX_BLOCK_SIZE);
        }
        if (!(prefetchAt >= 0 && prefetchAt < 1)) throw new IllegalArgumentException("prefetchAt must be in [0, 1)");
        this.store = store;
        this.blockSize = blockSize;
        this.prefetchAt = prefetchAt;
        this.prefetcher = new ThreadPoolExecutor(BACKGROUND_LEASES, BACKGROUND_LEASES, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), daemonThreads());
        this.prefetcher.allowCoreThreadTimeOut(true);
    }

    /** A new ID for an object of {@code type} on {@code shard}. */
    public long newId(ObjectType type, int shard) {
        return sequence(type, shard).nextId();
    }

    /**
     * Starts a lease, in the background and all at once, for each of these shards' sequences of {@code type} that has no
     * id left and no block coming: a batch about to create objects on many shards (each a sequence this process has not
     * leased yet, after a start) then waits for its slowest lease instead of one lease after another. Returns at once;
     * {@link #newId} takes the leased block (and reports a failed lease, as it does a prefetch's).
     */
    public void leaseAhead(ObjectType type, Collection<Integer> shards) {
        for (int shard : shards) sequence(type, shard).leaseAhead();
    }

    /** The sequence of (type, shard): callers on a hot path can keep it and skip the lookup. */
    public LocalIdSequence sequence(ObjectType type, int shard) {
        if (type == null) throw new InvalidIdException("type is missing");
        ShardedId.checkShard(shard);
        AtomicReferenceArray<LocalIdSequence> byShard = sequences.get(type.id());
        if (byShard == null) {
            sequences.compareAndSet(type.id(), null, new AtomicReferenceArray<>(ShardedId.MAX_SHARD + 1));
            byShard = sequences.get(type.id());
        }
        LocalIdSequence sequence = byShard.get(shard);
        if (sequence == null) {
            byShard.compareAndSet(shard, null, new LocalIdSequence(store, prefetcher, shard, type, blockSize, prefetchAt));
            sequence = byShard.get(shard);
        }
        return sequence;
    }

    @Override
    public void close() {
        // A lease still queued never runs: its waiter learns the allocator is closed instead of waiting forever.
        for (Runnable never : prefetcher.shutdownNow()) {
            if (never instanceof LocalIdSequence.Lease lease) lease.abandon();
        }
    }

    private static java.util.concurrent.ThreadFactory daemonThreads() {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "id-block-prefetch-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
