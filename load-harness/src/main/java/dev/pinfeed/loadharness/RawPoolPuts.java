package dev.pinfeed.loadharness;

import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.hbase.HBaseClusters;
import dev.pinfeed.feedstore.hbase.HBasePoolStore;
import dev.pinfeed.feedstore.hbase.PoolKeys;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Mutation;

/**
 * The raw baseline of every pool-write benchmark: the rows the worker stores for these entries (each
 * entry's entry row and index row, {@link PoolKeys#puts}) through one bare BufferedMutator with
 * {@link HBasePoolStore}'s 4 MiB buffer, flushed every {@code perBatch} entries (as large as a worker
 * batch). No size counter, no trim, no scoring: the least any writer of these rows must do.
 */
final class RawPoolPuts {

    /** What one run wrote, over how long, and where the CPU went meanwhile. */
    record Outcome(long entries, double seconds, CpuMeter.Split cpu) {
        double entriesPerSecond() {
            return entries / seconds;
        }
    }

    private RawPoolPuts() {}

    /** Writes the entries (built lazily, inside the timed window, as the worker builds its own) and times it. */
    static Outcome write(Connection hbase, Iterable<PoolEntry> entries, int perBatch) throws IOException {
        List<Mutation> batch = new ArrayList<>(perBatch * 2);
        long n = 0;
        CpuMeter.Snapshot from = CpuMeter.now();
        try (BufferedMutator mutator = hbase.getBufferedMutator(new BufferedMutatorParams(HBaseClusters.POOLS).writeBufferSize(4L << 20))) {
            for (PoolEntry e : entries) {
                batch.addAll(PoolKeys.puts(e));
                if (++n % perBatch == 0) {
                    mutator.mutate(batch);
                    mutator.flush();
                    batch.clear();
                }
            }
            mutator.mutate(batch);
            mutator.flush();
        }
        CpuMeter.Snapshot to = CpuMeter.now();
        return new Outcome(n, (to.wallNanos() - from.wallNanos()) / 1e9, CpuMeter.between(from, to));
    }
}
