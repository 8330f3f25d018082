package dev.pinfeed.feedservice;

import dev.pinfeed.canonicalstore.reads.CacheListener;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.feedservice.homefeed.HomeFeedListener;
import dev.pinfeed.feedstore.Source;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * feed-service's own meters, registered here and nowhere else (on the app's registry, which
 * {@code GET /metrics} serves): the canonical caches' lookups and outages, and the home feed's
 * generations, fallbacks, chunk sizes, served items and hydration drops.
 */
public final class FeedMetrics implements CacheListener, HomeFeedListener {

    private final MeterRegistry registry;
    private final Meter.MeterProvider<Counter> lookups;
    /**
     * The lookups' counters by cache, hit then miss, and the served items' by source: counted several times per page, so
     * looked up once (a {@code withTags} builds its tags and searches the registry on every call).
     */
    private final Map<String, Counter[]> lookupCounters = new ConcurrentHashMap<>();
    private final Map<Source, Counter> servedCounters = new EnumMap<>(Source.class);
    private final Meter.MeterProvider<Counter> errors;
    private final Timer generation;
    private final Meter.MeterProvider<Counter> fallbacks;
    private final DistributionSummary chunkSize;
    private final Meter.MeterProvider<Counter> served;
    private final Counter hydrationDropped;
    private final Counter afterAnswerFailures;
    private final Meter.MeterProvider<Counter> lateChunks;
    private final Meter.MeterProvider<Counter> quietPools;

    public FeedMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.lookups = Counter.builder("feed_cache_lookups_total")
                .description("Canonical cache lookups, by cache (user, board, pin, comment, board_pins; recent_pin: pins kept in the process; pin_json: their JSON kept for pages; read_ahead: pages after a position read ahead; first_page: first page views kept) and result (hit, miss)").withRegistry(registry);
        this.errors = Counter.builder("feed_cache_errors_total")
                .description("Canonical cache calls that failed (the read went to MySQL), by Redis instance").withRegistry(registry);
        this.generation = Timer.builder("feed_generation_seconds")
                .description("Content generator runs of home feed first pages, in time or late").register(registry);
        this.fallbacks = Counter.builder("feed_generator_fallbacks_total")
                .description("First pages served from the materialized feed alone, by reason (error, deadline)").withRegistry(registry);
        this.chunkSize = DistributionSummary.builder("feed_chunk_size").description("Pins per generated chunk").register(registry);
        this.served = Counter.builder("feed_items_served_total").description("Home feed items served, by source").withRegistry(registry);
        for (Source source : Source.values()) servedCounters.put(source, served.withTags("source", source.wireName()));
        this.hydrationDropped = Counter.builder("feed_hydration_dropped_total")
                .description("Home feed items left out because their pin is deleted or unknown").register(registry);
        this.afterAnswerFailures = Counter.builder("feed_after_answer_failures_total")
                .description("Post-answer home feed writes that failed (redone from the journal or on the next view)").register(registry);
        this.quietPools = Counter.builder("feed_quiet_pools_total")
                .description("First pages' generations and the quiet pools, by outcome (skipped: the pools were quiet, not read; "
                        + "remembered: this process found them quiet a moment ago, no generation; marked: a generation found nothing and marked them; error: the store failed a look, mark or notice)")
                .withRegistry(registry);
        this.lateChunks = Counter.builder("feed_late_chunks_total")
                .description("Chunks that missed the generator deadline, once done, by outcome (kept: materialized for the next view; "
                        + "dropped: a newer view generated meanwhile)").withRegistry(registry);
    }

    @Override
    public void generated(Duration took, int size) {
        generation.record(took);
        chunkSize.record(size);
    }

    @Override
    public void quietPools(QuietPoolsOutcome outcome) {
        quietPools.withTags("outcome", outcome.tag()).increment();
    }

    @Override
    public void fallback(Fallback reason) {
        fallbacks.withTags("reason", reason.tag()).increment();
    }

    @Override
    public void lateChunk(boolean kept) {
        lateChunks.withTags("outcome", kept ? "kept" : "dropped").increment();
    }

    @Override
    public void served(Source source, int n) {
        servedCounters.get(source).increment(n);
    }

    @Override
    public void hydrationDropped(int n) {
        hydrationDropped.increment(n);
    }

    @Override
    public void afterAnswerFailed(RuntimeException e) {
        afterAnswerFailures.increment();
    }

    public long fallbacks(String reason) {
        return count("feed_generator_fallbacks_total", Tags.of("reason", reason));
    }

    @Override
    public void hits(String cache, int n) {
        if (n > 0) lookupCounters(cache)[0].increment(n);
    }

    @Override
    public void misses(String cache, int n) {
        if (n > 0) lookupCounters(cache)[1].increment(n);
    }

    private Counter[] lookupCounters(String cache) {
        return lookupCounters.computeIfAbsent(cache, c -> new Counter[] {
                lookups.withTags("cache", c, "result", "hit"), lookups.withTags("cache", c, "result", "miss")});
    }

    @Override
    public void error(StoreUnavailableException e) {
        errors.withTags("store", e.store()).increment();
    }

    public long cacheErrors(String store) {
        return count("feed_cache_errors_total", Tags.of("store", store));
    }

    public long lookups(String cache, String result) {
        return count("feed_cache_lookups_total", Tags.of("cache", cache, "result", result));
    }

    private long count(String name, Tags tags) {
        Counter c = registry.find(name).tags(tags).counter();
        return c == null ? 0 : (long) c.count();
    }
}
