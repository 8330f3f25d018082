package dev.pinfeed.feedstore;

import dev.pinfeed.config.Mix64;

/**
 * A time to live spread by user: between half of it and all of it, by the user's id. Readers whose entries were kept at
 * the same moment (a burst, a benchmark's start, a restart) then do not all miss and read the store again at the same
 * moment, every time to live after it.
 */
final class StaggeredTtl {

    private StaggeredTtl() {}

    /** The user's share of {@code ttlMillis}: in {@code [ttlMillis - ttlMillis / 2, ttlMillis]}, the same for him each time. */
    static long forUser(long ttlMillis, long userId) {
        long half = ttlMillis / 2;
        return ttlMillis - Math.floorMod(Mix64.of(userId), half + 1);
    }
}
