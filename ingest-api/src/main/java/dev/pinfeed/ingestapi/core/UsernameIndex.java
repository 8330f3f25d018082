package dev.pinfeed.ingestapi.core;

import java.util.OptionalLong;

/**
 * The cross-shard username → user-id index (Quora's cross-shard index: a table sharded by the
 * indexed column, not by the user). Uniqueness is the store's: of two concurrent claims for one
 * name exactly one wins.
 */
public interface UsernameIndex extends AutoCloseable {

    /** Claims {@code username} for {@code userId}; false when another user holds it. Claiming again for the same user is true. */
    boolean claim(String username, long userId);

    /** Releases a claim made for {@code userId} (a no-op when another user holds the name). */
    void release(String username, long userId);

    OptionalLong find(String username);

    @Override
    default void close() {}
}
