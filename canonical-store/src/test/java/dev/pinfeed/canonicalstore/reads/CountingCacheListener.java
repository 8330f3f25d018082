package dev.pinfeed.canonicalstore.reads;

import java.util.Map;
import java.util.TreeMap;

/** Hits and misses as a cache reported them, by "cache hits" and "cache misses". */
public final class CountingCacheListener implements CacheListener {

    private final Map<String, Integer> counts = new TreeMap<>();

    @Override
    public synchronized void hits(String cache, int n) {
        counts.merge(cache + " hits", n, Integer::sum);
    }

    @Override
    public synchronized void misses(String cache, int n) {
        counts.merge(cache + " misses", n, Integer::sum);
    }

    public synchronized Map<String, Integer> counts() {
        return new TreeMap<>(counts);
    }
}
