package dev.pinfeed.feedservice;

import dev.pinfeed.canonicalstore.reads.CacheListener;
import dev.pinfeed.config.StoreUnavailableException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * feed-service's own meters, registered here and nowhere else (on the app's registry, which
 * {@code GET /metrics} serves): the canonical caches' lookups and outages.
 */
public final class FeedMetrics implements CacheListener {

    private final MeterRegistry registry;
    private final Meter.MeterProvider<Counter> lookups;
    private final Meter.MeterProvider<Counter> errors;

    public FeedMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.lookups = Counter.builder("feed_cache_lookups_total")
                .description("Canonical cache lookups, by cache (user, board, pin, board_pins) and result (hit, miss)").withRegistry(registry);
        this.errors = Counter.builder("feed_cache_errors_total")
                .description("Canonical cache calls that failed (the read went to MySQL), by Redis instance").withRegistry(registry);
    }

    @Override
    public void hits(String cache, int n) {
        if (n > 0) lookups.withTags("cache", cache, "result", "hit").increment(n);
    }

    @Override
    public void misses(String cache, int n) {
        if (n > 0) lookups.withTags("cache", cache, "result", "miss").increment(n);
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
