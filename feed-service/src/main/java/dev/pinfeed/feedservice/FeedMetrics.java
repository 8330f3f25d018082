package dev.pinfeed.feedservice;

import dev.pinfeed.canonicalstore.reads.CacheListener;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.httpkit.Metrics;

/**
 * feed-service's own metrics, registered here and nowhere else (so moving them to another registry is
 * one class): the canonical caches' lookups and outages.
 */
public final class FeedMetrics implements CacheListener {

    private final Metrics.Counter lookups;
    private final Metrics.Counter errors;

    public FeedMetrics(Metrics metrics) {
        this.lookups = metrics.counter("feed_cache_lookups_total", "Canonical cache lookups, by cache (user, board, pin, board_pins) and result.",
                "cache", "result");
        this.errors = metrics.counter("feed_cache_errors_total", "Canonical cache calls that failed (the read went to MySQL), by Redis instance.",
                "store");
    }

    @Override
    public void hits(String cache, int n) {
        if (n > 0) lookups.inc(n, cache, "hit");
    }

    @Override
    public void misses(String cache, int n) {
        if (n > 0) lookups.inc(n, cache, "miss");
    }

    @Override
    public void error(StoreUnavailableException e) {
        errors.inc(e.store());
    }

    public long cacheErrors(String store) {
        return errors.value(store);
    }

    public long lookups(String cache, String result) {
        return lookups.value(cache, result);
    }
}
