package dev.pinfeed.idallocator;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Local IDs of one (shard, type), double-buffered as in Meituan Leaf's segment mode: IDs come from
 * the current leased block with one atomic increment; once a fraction of it is used, the next
 * block is leased in the background, so callers rarely wait for the store. Thread-safe.
 *
 * <p>Crash safety: an ID is only handed out from a block the store has already committed as
 * taken, so after a crash or restart the store's counter is past every ID ever issued. Unused
 * rest of the current and prefetched blocks become gaps.
 */
public final class LocalIdSequence {

    private final SequenceStore store;
    private final Executor prefetcher;
    private final int shard;
    private final ObjectType type;
    private final int blockSize;
    private final double prefetchAt;

    /** Starts empty, so the first call leases. */
    private volatile Block current = Block.EMPTY;
    /** The block being leased in the background, if any; guarded by {@code this}. */
    private CompletableFuture<Block> next;

    LocalIdSequence(SequenceStore store, Executor prefetcher, int shard, ObjectType type, int blockSize, double prefetchAt) {
        this.store = store;
        this.prefetcher = prefetcher;
        this.shard = ShardedId.checkShard(shard);
        this.type = type;
        this.blockSize = blockSize;
        this.prefetchAt = prefetchAt;
    }

    public int shard() {
        return shard;
    }

    public ObjectType type() {
        return type;
    }

    public long nextLocalId() {
        while (true) {
            Block block = current;
            long id = block.cursor.getAndIncrement();
            if (id < block.end) {
                if (id == block.prefetchMark) prefetch();
                return id;
            }
            switchFrom(block);
        }
    }

    /** The next sharded ID: shard, type and a fresh local ID. */
    public long nextId() {
        return ShardedId.pack(shard, type.id(), nextLocalId());
    }

    private synchronized void prefetch() {
        if (next != null) return;
        Lease lease = new Lease();
        try {
            prefetcher.execute(lease);
            next = lease.block;
        } catch (RejectedExecutionException closed) {
            // allocator closed: the switch to the next block leases on the caller's thread instead
        }
    }

    /** Starts leasing the next block now if the current one has no id left and none is coming ({@link ShardedIdAllocator#leaseAhead}). */
    synchronized void leaseAhead() {
        Block block = current;
        if (block.cursor.get() >= block.end) prefetch();
    }

    /** A background lease of this sequence's next block. */
    final class Lease implements Runnable {
        final CompletableFuture<Block> block = new CompletableFuture<>();

        @Override
        public void run() {
            try {
                block.complete(lease());
            } catch (RuntimeException | Error e) {
                block.completeExceptionally(e);
            }
        }

        /** The allocator closed before this lease ran. */
        void abandon() {
            block.completeExceptionally(new IdAllocationException("leasing local ids for shard " + shard + " type "
                    + type.typeName() + ": the allocator is closed"));
        }
    }

    /** Makes the next block current unless another thread already replaced {@code spent}. */
    private synchronized void switchFrom(Block spent) {
        if (current != spent) return;
        CompletableFuture<Block> pending = next;
        next = null;
        if (pending == null) {
            current = lease(); // nothing prefetched (first use, or the prefetch failed): lease on this thread
            return;
        }
        try {
            current = pending.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof IdAllocationException failure) throw failure;
            throw new IdAllocationException("leasing local ids for shard " + shard + " type " + type.typeName()
                    + " failed: " + e.getCause(), e.getCause());
        }
    }

    private Block lease() {
        LocalIdBlock leased;
        try {
            leased = store.lease(shard, type.id(), blockSize);
        } catch (IdAllocationException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IdAllocationException("leasing local ids for shard " + shard + " type " + type.typeName()
                    + " failed: " + e.getMessage(), e);
        }
        if (leased.shard() != shard || leased.typeId() != type.id()) {
            throw new IdAllocationException("store returned a block of shard " + leased.shard() + " type " + leased.typeId()
                    + " for shard " + shard + " type " + type.id());
        }
        return new Block(leased.start(), leased.end(), leased.start() + (long) (leased.size() * prefetchAt));
    }

    private static final class Block {
        static final Block EMPTY = new Block(0, 0, -1);

        final AtomicLong cursor;
        final long end;
        /** Handing out this ID triggers the background lease of the next block. */
        final long prefetchMark;

        Block(long start, long end, long prefetchMark) {
            this.cursor = new AtomicLong(start);
            this.end = end;
            this.prefetchMark = prefetchMark;
        }
    }
}
