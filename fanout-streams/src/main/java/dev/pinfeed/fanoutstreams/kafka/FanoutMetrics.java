package dev.pinfeed.fanoutstreams.kafka;

import dev.pinfeed.events.FanoutAction;
import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.events.FanoutReceiver;
import dev.pinfeed.events.FanoutSource;
import dev.pinfeed.processorruntime.DeadLetterWriter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fan-out's own meters: {@code fanout_chunks_total{action}}, {@code fanout_receivers_total{source}},
 * {@code fanout_inactive_skipped_total}, {@code fanout_jobs_pending} (over the tasks of this process),
 * and the shared {@code pinfeed_dead_letters_total{processor="fanout-streams", reason}}. Counted when a
 * chunk joins the transaction: an aborted transaction (crash) makes them count its chunks twice.
 */
public final class FanoutMetrics implements DeadLetterHandlers.Counter {

    public static final String PROCESSOR = "fanout-streams";

    private final MeterRegistry registry;
    private final Map<FanoutAction, Counter> chunks = new EnumMap<>(FanoutAction.class);
    private final Map<FanoutSource, Counter> receivers = new EnumMap<>(FanoutSource.class);
    private final Counter skipped;
    private final Counter lastReadsLookedUp;
    private final Set<AtomicLong> pendingPerTask = ConcurrentHashMap.newKeySet();

    public FanoutMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (FanoutAction a : FanoutAction.values()) {
            chunks.put(a, Counter.builder("fanout.chunks").description("FanoutChunks sent, by action.")
                    .tag("action", a.name()).register(registry));
        }
        for (FanoutSource s : FanoutSource.values()) {
            receivers.put(s, Counter.builder("fanout.receivers").description("Receivers named in FanoutChunks, by source.")
                    .tag("source", s.name()).register(registry));
        }
        skipped = Counter.builder("fanout.inactive.skipped")
                .description("Receivers left out of an ADD fan-out: no feed read within fanout.active-days.").register(registry);
        lastReadsLookedUp = Counter.builder("fanout.last.reads.looked.up")
                .description("Receivers of an ADD fan-out whose last feed read was looked up in Redis (the others were known active).")
                .register(registry);
        Gauge.builder("fanout.jobs.pending", this, FanoutMetrics::pending)
                .description("Fan-out jobs not finished yet, over the tasks this process owns.").register(registry);
    }

    void chunk(FanoutChunk chunk) {
        chunks.get(chunk.getAction()).increment();
        java.util.EnumMap<FanoutSource, Integer> bySource = new java.util.EnumMap<>(FanoutSource.class);
        for (FanoutReceiver r : chunk.getReceivers()) bySource.merge(r.getSource(), 1, Integer::sum);
        bySource.forEach((source, n) -> receivers.get(source).increment(n));
    }

    void skipped(int n) {
        if (n > 0) skipped.increment(n);
    }

    void lastReadsLookedUp(int n) {
        if (n > 0) lastReadsLookedUp.increment(n);
    }

    @Override
    public void deadLettered(String reason) {
        DeadLetterWriter.counter(registry, PROCESSOR, reason).increment();
    }

    /** A task's pending count, summed into the gauge until {@link #untrack}. */
    AtomicLong track() {
        AtomicLong n = new AtomicLong();
        pendingPerTask.add(n);
        return n;
    }

    void untrack(AtomicLong n) {
        pendingPerTask.remove(n);
    }

    public long pending() {
        long sum = 0;
        for (AtomicLong n : pendingPerTask) sum += n.get();
        return sum;
    }
}
