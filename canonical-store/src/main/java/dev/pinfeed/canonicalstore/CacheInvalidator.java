package dev.pinfeed.canonicalstore;

import dev.pinfeed.config.StoreUnavailableException;
import java.util.Collection;
import java.util.Map;

/** The write side of the canonical caches: after a commit, bump each object's cache version and drop its keys. */
public interface CacheInvalidator {

    /** The cache instance (e.g. {@code redis001}) holding the keys of {@code objectId}. */
    String instanceOf(long objectId);

    /**
     * Applies {@code invalidations}, instances in parallel where the adapter can. Returns the instances
     * that could not be reached (their invalidations did not happen and must be retried); empty when
     * all applied. Applying one twice is harmless.
     */
    Map<String, StoreUnavailableException> invalidate(Collection<CacheInvalidation> invalidations);
}
