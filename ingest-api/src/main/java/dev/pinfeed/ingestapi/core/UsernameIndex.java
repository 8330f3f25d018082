package dev.pinfeed.ingestapi.core;

import java.util.HashSet;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The cross-shard username → user-id index (Quora's cross-shard index: a table sharded by the
 * indexed column, not by the user). Uniqueness is the store's: of two concurrent claims for one
 * name exactly one wins.
 */
public interface UsernameIndex extends AutoCloseable {

    /** Claims {@code username} for {@code userId}; false when another user holds it. Claiming again for the same user is true. */
    boolean claim(String username, long userId);

    /**
     * Claims each name for its user, as {@link #claim} does one by one; returns the names claimed (held by their user now).
     * A store may claim them together (the MySQL index: one transaction per host, not one per name). When it throws, any
     * of the names may be held: the caller releases those it does not keep.
     */
    default Set<String> claimAll(Map<String, Long> claims) {
        Set<String> claimed = new HashSet<>();
        claims.forEach((name, userId) -> {
            if (claim(name, userId)) claimed.add(name);
        });
        return claimed;
    }

    /** Releases a claim made for {@code userId} (a no-op when another user holds the name). */
    void release(String username, long userId);

    OptionalLong find(String username);

    @Override
    default void close() {}
}
