package dev.pinfeed.idallocator;

/**
 * Port to the durable per-(shard, type) counters that local IDs are leased from.
 *
 * <p>Contract: {@link #lease} atomically advances the counter by {@code blockSize} and returns the
 * range it skipped over, so no range is ever returned twice — across threads, processes and
 * restarts. Local IDs start at 1 and never exceed {@link ShardedId#MAX_LOCAL_ID}; a lease that
 * would cross that limit throws {@link IdAllocationException}. Store failures throw
 * {@link IdAllocationException}; bad arguments throw {@link IllegalArgumentException}.
 */
public interface SequenceStore extends AutoCloseable {

    /** Largest block one lease may take (a sanity bound, far above any sensible block size). */
    int MAX_BLOCK_SIZE = 1 << 24;

    LocalIdBlock lease(int shard, int typeId, int blockSize);

    @Override
    default void close() {
    }

    /** Argument checks every store applies before touching its counters. */
    static void checkLease(int shard, int typeId, int blockSize) {
        ShardedId.checkShard(shard);
        checkTypeId(typeId);
        if (blockSize < 1 || blockSize > MAX_BLOCK_SIZE) {
            throw new IllegalArgumentException("block size " + blockSize + " is out of range 1-" + MAX_BLOCK_SIZE);
        }
    }

    static int checkTypeId(int typeId) {
        if (typeId < 0 || typeId > ShardedId.MAX_TYPE) {
            throw new InvalidIdException("type " + typeId + " is out of range 0-" + ShardedId.MAX_TYPE);
        }
        return typeId;
    }
}
