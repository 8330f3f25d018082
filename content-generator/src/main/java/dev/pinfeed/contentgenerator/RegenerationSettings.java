package dev.pinfeed.contentgenerator;

import dev.pinfeed.config.PinfeedConfig;

/**
 * How {@link PoolRegenerator} fills pools.
 *
 * @param followees  followed users, and followed boards, read ({@code feed.regenerate.followees}, 200 each)
 * @param pinsEach   newest pins read per followed user or board ({@code feed.regenerate.pins-each}, 10)
 * @param poolMax    the worker's pool bound, kept by regeneration too ({@code feed.pool-max}, 500)
 * @param poolTrimTo what a pool past {@code poolMax} is cut back to ({@code feed.pool-trim-to}, 90 % of the max)
 */
public record RegenerationSettings(int followees, int pinsEach, int poolMax, int poolTrimTo) {

    public RegenerationSettings {
        if (followees < 0 || pinsEach < 0) throw new IllegalArgumentException("feed.regenerate.* must be >= 0");
        if (poolTrimTo < 1 || poolTrimTo > poolMax) throw new IllegalArgumentException("need 0 < feed.pool-trim-to <= feed.pool-max");
    }

    public static RegenerationSettings defaults() {
        return new RegenerationSettings(200, 10, 500, 450);
    }

    public static RegenerationSettings from(PinfeedConfig config) {
        RegenerationSettings d = defaults();
        int poolMax = config.getInt("feed.pool-max", d.poolMax());
        return new RegenerationSettings(config.getInt("feed.regenerate.followees", d.followees()),
                config.getInt("feed.regenerate.pins-each", d.pinsEach()), poolMax, config.getInt("feed.pool-trim-to", Math.max(1, poolMax * 9 / 10)));
    }
}
