package dev.pinfeed.idallocator.bench;

import dev.pinfeed.idallocator.LocalIdBlock;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.idallocator.LocalIdSequence;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedIdAllocator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Sharded IDs from a warm, double-buffered block (in-memory store: measures the allocator, not
 * the database). Baseline: a bare shared AtomicLong increment, the floor any lock-free counter pays.
 * Run with -t 1 and -t 2; all threads share one (shard, type) sequence, the worst case.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ShardedIdBenchmark {

    private ShardedIdAllocator allocator;
    private LocalIdSequence pinsOnShard12;
    private final AtomicLong baseline = new AtomicLong();

    @Setup
    public void warmUp() {
        // Leases from one in-memory counter: unique ranges for every (shard, type), all the benchmark needs of a store.
        AtomicLong next = new AtomicLong(ShardedId.MIN_LOCAL_ID);
        allocator = new ShardedIdAllocator((shard, type, size) -> LocalIdBlock.leased(shard, type, next.getAndAdd(size), size), 100_000);
        pinsOnShard12 = allocator.sequence(ObjectType.PIN, 12);
        pinsOnShard12.nextId(); // first lease happens here, not in the measurement
    }

    @TearDown
    public void close() {
        allocator.close();
    }

    /** The service hot path with the sequence handle kept. */
    @Benchmark
    public long shardedId() {
        return pinsOnShard12.nextId();
    }

    /** Including the (type, shard) lookup on every call. */
    @Benchmark
    public long shardedIdWithLookup() {
        return allocator.newId(ObjectType.PIN, 12);
    }

    @Benchmark
    public long baselineAtomicIncrement() {
        return baseline.incrementAndGet();
    }
}
