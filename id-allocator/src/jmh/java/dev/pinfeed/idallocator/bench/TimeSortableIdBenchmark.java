package dev.pinfeed.idallocator.bench;

import dev.pinfeed.idallocator.TimeSortableIdGenerator;
import dev.pinfeed.idallocator.TimeSortableLayout;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Time-sortable IDs on the system clock. {@code oneShard} runs into the layout's ceiling of 1024
 * IDs per ms per shard (1,024,000/s); {@code manyShards} rotates over all 8192 logical shards,
 * whose combined ceiling (8.4e9/s) is far above what a CPU can reach, so it measures the generator.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class TimeSortableIdBenchmark {

    @State(Scope.Benchmark)
    public static class Generator {
        TimeSortableIdGenerator generator;

        @Setup
        public void create() {
            generator = TimeSortableIdGenerator.systemClock(new TimeSortableLayout(TimeSortableLayout.DEFAULT_EPOCH), Duration.ofMillis(100));
        }
    }

    @State(Scope.Thread)
    public static class ShardCursor {
        int next;

        int advance() {
            next = (next + 1) & TimeSortableLayout.MAX_SHARD;
            return next;
        }
    }

    @Benchmark
    public long oneShard(Generator g) {
        return g.generator.next(1341);
    }

    @Benchmark
    public long manyShards(Generator g, ShardCursor shards) {
        return g.generator.next(shards.advance());
    }

    /** What reading the clock alone costs: the floor under both. */
    @Benchmark
    public long baselineClockRead() {
        return System.currentTimeMillis();
    }
}
