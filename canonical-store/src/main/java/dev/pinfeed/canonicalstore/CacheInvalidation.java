package dev.pinfeed.canonicalstore;

import java.util.Set;

/**
 * What a committed change makes stale in the caches: the value keys of one object
 * ({@link CanonicalCacheKeys}), dropped after the object's {@link CanonicalCacheKeys#version} is
 * bumped, so a fill that read MySQL before the commit is refused.
 */
public record CacheInvalidation(long objectId, Set<String> keys) {

    public CacheInvalidation {
        keys = Set.copyOf(keys);
    }

    public static CacheInvalidation of(long objectId, String... keys) {
        return new CacheInvalidation(objectId, Set.of(keys));
    }
}
