package dev.pinfeed.ingestapi.kafka;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Decides when a publish should be refused at once because the log is unreachable, instead of being
 * queued in the producer to wait out its delivery timeout (measured before this: callers hung ~25 s
 * for a 503 while the broker was down, or waited that long for a 202 after a short outage).
 *
 * <p>The log counts as unreachable while the producer holds no connection to the cluster and records
 * it accepted have made no progress (no acknowledgement, no failure) for {@code patience}: the
 * producer has tried and could not reach any broker. Records already queued keep their chance (they
 * land if the broker returns before their delivery timeout); only new ones are refused, which sends
 * nothing, so callers may retry them safely. The producer keeps reconnecting while records wait; the
 * first acknowledgement (or the queue draining by expiry) ends the refusals.
 */
final class LogReachability {

    private final long patienceNanos;
    private final LongSupplier nanoTime;
    private final AtomicInteger pending = new AtomicInteger();
    /** When a record last completed, or the queue went from empty to waiting: the last sign of progress. */
    private final AtomicLong lastProgress;

    LogReachability(long patienceMillis, LongSupplier nanoTime) {
        this.patienceNanos = patienceMillis * 1_000_000L;
        this.nanoTime = nanoTime;
        this.lastProgress = new AtomicLong(nanoTime.getAsLong());
    }

    /** A record entered the producer. */
    void sent() {
        if (pending.getAndIncrement() == 0) lastProgress.set(nanoTime.getAsLong());
    }

    /** A record that entered the producer was acknowledged or failed. */
    void completed() {
        pending.decrementAndGet();
        lastProgress.set(nanoTime.getAsLong());
    }

    /** True when a new record should be refused: no connection, records waiting, and no progress for the patience. */
    boolean unreachable(int openConnections) {
        return openConnections == 0 && pending.get() > 0 && nanoTime.getAsLong() - lastProgress.get() > patienceNanos;
    }

    /** How long nothing has progressed, in ms (for the refusal's message). */
    long stalledMillis() {
        return (nanoTime.getAsLong() - lastProgress.get()) / 1_000_000L;
    }
}
