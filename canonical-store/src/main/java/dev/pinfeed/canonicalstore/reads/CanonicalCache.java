package dev.pinfeed.canonicalstore.reads;

import java.util.List;
import java.util.Map;

/**
 * The caches' store (Redis in production, keys per {@link dev.pinfeed.canonicalstore.CanonicalCacheKeys}),
 * with the versioned fill of the invalidation protocol: a reader looks up an object's version together
 * with its values, reads the store on a miss, and fills only if the version is unchanged, so a writer
 * that bumped it meanwhile (and dropped the values) never sees its invalidation undone.
 * Unreachable: {@link dev.pinfeed.config.StoreUnavailableException} naming the instance.
 */
public interface CanonicalCache {

    /** Each object's version now ({@code ""} when it has none) and each of its keys' value (null: absent). */
    Map<Long, Lookup> lookup(Map<Long, List<String>> keysByObject);

    /** Sets each fill's values (with the cache's time to live) only where the object's version is still the looked-up one. */
    void fill(List<Fill> fills);

    record Lookup(String version, Map<String, String> values) {}

    record Fill(long objectId, String version, Map<String, String> values) {}
}
