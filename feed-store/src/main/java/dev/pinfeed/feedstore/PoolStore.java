package dev.pinfeed.feedstore;

import java.util.Collection;
import java.util.List;

/**
 * The per-user pools (seed 002): for each (user, source) a priority queue of scored pins, best
 * first. A user holds at most one entry per pin across all his pools, so a replay or a re-score
 * replaces the entry instead of adding a second one.
 */
public interface PoolStore extends AutoCloseable {

    /** Adds entries, or replaces a user's existing entry for the same pin (new score, new source). Idempotent. */
    void upsert(Collection<PoolEntry> entries);

    /** Removes the user's entries for these pins, whatever pool they sit in. Idempotent. */
    void remove(long userId, Collection<Long> pinIds);

    /** The {@code n} best entries of the user's pool for {@code source}, best first (equal scores: newer pin first). */
    List<PoolEntry> best(long userId, Source source, int n);

    /** Every entry of the user in every pool (pools are bounded, so this is small): for purges. */
    List<PoolEntry> all(long userId);

    /** Keeps the {@code maxPerSource} best entries of each of the user's pools; returns how many were removed. */
    int trim(long userId, int maxPerSource);

    @Override
    default void close() {}
}
