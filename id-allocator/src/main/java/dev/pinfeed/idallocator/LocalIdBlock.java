package dev.pinfeed.idallocator;

/** A leased, half-open range [start, end) of local IDs of one (shard, type), owned by one allocator. */
public record LocalIdBlock(int shard, int typeId, long start, long end) {

    public LocalIdBlock {
        ShardedId.checkShard(shard);
        SequenceStore.checkTypeId(typeId);
        if (start < ShardedId.MIN_LOCAL_ID || end <= start || end - 1 > ShardedId.MAX_LOCAL_ID) {
            throw new IllegalArgumentException("block [" + start + ", " + end + ") is not a non-empty range of local ids "
                    + ShardedId.MIN_LOCAL_ID + "-" + ShardedId.MAX_LOCAL_ID);
        }
    }

    /**
     * The block [start, start + size) a store just reserved, or an {@link IdAllocationException} if
     * it reaches past the 36-bit local-ID space (the store's counter has then run out for good).
     */
    public static LocalIdBlock leased(int shard, int typeId, long start, int size) {
        if (start + size - 1 > ShardedId.MAX_LOCAL_ID) {
            throw new IdAllocationException("local ids of shard " + shard + " type " + typeId + " are exhausted: a block of "
                    + size + " from " + start + " passes the 36-bit limit " + ShardedId.MAX_LOCAL_ID);
        }
        return new LocalIdBlock(shard, typeId, start, start + size);
    }

    public long size() {
        return end - start;
    }
}
