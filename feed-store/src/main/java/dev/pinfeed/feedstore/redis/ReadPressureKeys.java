package dev.pinfeed.feedstore.redis;

import dev.pinfeed.redisshards.VirtualShards;

/**
 * The read-pressure key ({@link RedisReadPressure}), on the follower graph's Redis instances; nothing else formats it. One
 * key for the whole deployment, on virtual shard 0's instance (its hash tag {@code {v0}}).
 *
 * <pre>
 * &lt;p&gt;{v0}:fs:read-pressure   STRING   "1" while readers wait, with the raise's hold as its TTL
 * </pre>
 * {@code <p>} is the key prefix (the graph's, {@code graph.redis.key-prefix}): empty in production, a fresh one per test.
 */
public final class ReadPressureKeys {

    /** The virtual shard whose instance holds the key. */
    static final int SHARD = 0;

    private final String prefix;

    public ReadPressureKeys(String prefix) {
        this.prefix = VirtualShards.checkedPrefix(prefix);
    }

    public String readPressure() {
        return prefix + VirtualShards.tagOfShard(SHARD) + ":fs:read-pressure";
    }
}
