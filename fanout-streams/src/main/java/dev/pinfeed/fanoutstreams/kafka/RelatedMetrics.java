package dev.pinfeed.fanoutstreams.kafka;

import dev.pinfeed.fanoutstreams.related.ActionBudget;
import dev.pinfeed.processorruntime.DeadLetterWriter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The related-pins application's meters: {@code related_actions_total} (likes and saves of a known pin, each asking its
 * boards), {@code related_actions_shed_total} (likes and saves past their user's budget, asking nothing: {@link ActionBudget}),
 * {@code related_chunks_total} (related pins sent, one receiver each), and the shared
 * {@code pinfeed_dead_letters_total{processor="related-pins", reason}}. Counted when a record joins the transaction: an
 * aborted transaction (crash) makes them count its records twice.
 */
public final class RelatedMetrics implements DeadLetterHandlers.Counter {

    public static final String PROCESSOR = "related-pins";

    private final MeterRegistry registry;
    private final Counter actions;
    private final Counter chunks;
    private final Counter memberships;

    public RelatedMetrics(MeterRegistry registry) {
        this.registry = registry;
        actions = Counter.builder("related.actions").description("Likes and saves of a known pin: each asks the pin's boards for related pins.")
                .register(registry);
        chunks = Counter.builder("related.chunks").description("Related pins sent to feed-worker (FanoutChunks tagged RELATED, one receiver each).")
                .register(registry);
        memberships = Counter.builder("related.memberships")
                .description("Pins put on a board's list (a pin's creation on its board, a save onto another), repeats included.")
                .register(registry);
    }

    /** Counts what the budget sheds (the budget keeps the count: it is read at scrape time). */
    void watch(ActionBudget budget) {
        FunctionCounter.builder("related.actions.shed", budget, ActionBudget::shed)
                .description("Likes and saves past their user's related.max-actions-per-minute: they asked for no related pins.")
                .register(registry);
    }

    void action() {
        actions.increment();
    }

    void chunk() {
        chunks.increment();
    }

    public double chunks() {
        return chunks.count();
    }

    void membership() {
        memberships.increment();
    }

    public double memberships() {
        return memberships.count();
    }

    @Override
    public void deadLettered(String reason) {
        DeadLetterWriter.counter(registry, PROCESSOR, reason).increment();
    }
}
