package dev.pinfeed.canonicalstore.reads;

import dev.pinfeed.config.StoreUnavailableException;

/** What the caches report (feed-service turns it into metrics): hits and misses per cache, and outages. */
public interface CacheListener {

    CacheListener NONE = new CacheListener() {};

    /** {@code cache}: {@code user}, {@code board}, {@code pin}, {@code comment} or {@code board_pins}. */
    default void hits(String cache, int n) {}

    default void misses(String cache, int n) {}

    /** The cache did not answer; the read went to the store instead. */
    default void error(StoreUnavailableException e) {}
}
