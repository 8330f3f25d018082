package dev.pinfeed.idallocator;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** A {@link SequenceStore} in one JVM's memory: for tests and benchmarks; forgets everything on exit. */
public final class InMemorySequenceStore implements SequenceStore {

    /** Next local id to hand out, per (shard << 10 | type). */
    private final ConcurrentHashMap<Integer, AtomicLong> nextByKey = new ConcurrentHashMap<>();

    @Override
    public LocalIdBlock lease(int shard, int typeId, int blockSize) {
        SequenceStore.checkLease(shard, typeId, blockSize);
        long start = counter(shard, typeId).getAndAdd(blockSize);
        return LocalIdBlock.leased(shard, typeId, start, blockSize);
    }

    /** Test hook: the next lease of (shard, type) starts at {@code nextLocal}. */
    public void setNext(int shard, int typeId, long nextLocal) {
        counter(shard, typeId).set(nextLocal);
    }

    private AtomicLong counter(int shard, int typeId) {
        return nextByKey.computeIfAbsent((shard << ShardedId.TYPE_BITS) | typeId, k -> new AtomicLong(ShardedId.MIN_LOCAL_ID));
    }
}
