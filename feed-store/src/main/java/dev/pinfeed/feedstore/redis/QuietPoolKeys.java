package dev.pinfeed.feedstore.redis;

import dev.pinfeed.redisshards.VirtualShards;

/**
 * The quiet-pools keys ({@link RedisQuietPools}), on the follower graph's Redis instances; nothing else formats them. A
 * user's key carries his virtual shard's hash tag ({@link VirtualShards#tag}), so it lives on the instance of his graph
 * keys and moves with them.
 *
 * <pre>
 * &lt;p&gt;{v&lt;s&gt;}:fs:u:&lt;U&gt;:pq   STRING   "q": U's pools are quiet; "t&lt;hex&gt;": a generation's ticket; both with a TTL
 * </pre>
 * {@code <p>} is the key prefix (the graph's, {@code graph.redis.key-prefix}): empty in production, a fresh one per test.
 */
public final class QuietPoolKeys {

    private final String prefix;

    public QuietPoolKeys(String prefix) {
        this.prefix = VirtualShards.checkedPrefix(prefix);
    }

    public String quietPools(long user) {
        return prefix + VirtualShards.tag(user) + ":fs:u:" + user + ":pq";
    }
}
