package dev.pinfeed.feedworker;

import dev.pinfeed.feedstore.Source;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;

/**
 * The worker's own meters (Prometheus names): {@code feed_worker_pool_writes_total{source}},
 * {@code feed_worker_pool_removes_total{reason}} ({@value #DELETE}, {@value #UNFOLLOW_USER},
 * {@value #UNFOLLOW_BOARD}, {@value #UNFOLLOW_INTEREST}, {@value #TRIM}), {@code feed_worker_backfill_pins_total} and the
 * summary {@code feed_worker_score{source}} (count, sum, max of the scores written).
 */
public final class WorkerMetrics {

    public static final String DELETE = "delete";
    public static final String UNFOLLOW_USER = "unfollow_user";
    public static final String UNFOLLOW_BOARD = "unfollow_board";
    public static final String UNFOLLOW_INTEREST = "unfollow_interest";
    public static final String TRIM = "trim";

    private final Map<Source, Counter> writes = new EnumMap<>(Source.class);
    private final Map<Source, DistributionSummary> scores = new EnumMap<>(Source.class);
    private final Map<String, Counter> removes = new HashMap<>();
    private final Counter backfill;
    private final Counter quietPoolsNoticeFailures;

    public WorkerMetrics(MeterRegistry registry) {
        for (Source s : Source.values()) {
            writes.put(s, Counter.builder("feed.worker.pool.writes").description("Pool entries written (new, replayed or re-scored), by source.")
                    .tag("source", s.wireName()).register(registry));
            scores.put(s, DistributionSummary.builder("feed.worker.score").description("Scores of the pool entries written, by source.")
                    .tag("source", s.wireName()).register(registry));
        }
        for (String reason : new String[] {DELETE, UNFOLLOW_USER, UNFOLLOW_BOARD, UNFOLLOW_INTEREST, TRIM}) {
            removes.put(reason, Counter.builder("feed.worker.pool.removes")
                    .description("Pool entries removed, by reason (a deleted pin counts once per receiver asked).")
                    .tag("reason", reason).register(registry));
        }
        backfill = Counter.builder("feed.worker.backfill.pins").description("Pins a new follow brought into the follower's pools.")
                .register(registry);
        quietPoolsNoticeFailures = Counter.builder("feed.worker.quiet.pools.notice.failures")
                .description("Pool writes whose notice to the quiet pools failed (a reader's quiet mark on them lapses within its maximum age).")
                .register(registry);
    }

    /** A pool write's notice to the quiet pools failed. */
    public void quietPoolsNoticeFailed(RuntimeException e) {
        quietPoolsNoticeFailures.increment();
    }

    void written(Source source, double score) {
        writes.get(source).increment();
        scores.get(source).record(score);
    }

    void removed(String reason, long n) {
        if (n > 0) removes.get(reason).increment(n);
    }

    void backfilled(long n) {
        if (n > 0) backfill.increment(n);
    }
}
