package dev.pinfeed.contentgenerator;

/**
 * What a reader's first page pulls into his own pools before the generator reads them: the pins the fan-out recorded
 * instead of pushing ({@link CelebrityPull}, {@link InterestPull}).
 */
@FunctionalInterface
public interface PoolPull {

    /** Pulls into {@code userId}'s pools what he has not got yet; returns how many entries were written. */
    int pull(long userId, long lastReadMillis);

    /** Pulls nothing. */
    PoolPull NONE = (userId, lastReadMillis) -> 0;

    /** Each of {@code pulls} in turn; a failing one fails the rest (they share the graph's Redis instances). */
    static PoolPull all(PoolPull... pulls) {
        return (userId, lastReadMillis) -> {
            int n = 0;
            for (PoolPull p : pulls) n += p.pull(userId, lastReadMillis);
            return n;
        };
    }
}
