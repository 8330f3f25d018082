package dev.pinfeed.feedstore.redis;

import dev.pinfeed.redisshards.VirtualShards;


/**
 * The last-read keys, on the follower graph's Redis instances; nothing else formats them. A user's key
 * carries his virtual shard's hash tag ({@link VirtualShards#tag}), so it lives on the instance of his
 * graph keys and moves with them.
 *
 * <pre>
 * &lt;p&gt;{v&lt;s&gt;}:fs:u:&lt;U&gt;:lr   STRING   when U last read his home feed, epoch ms
 * </pre>
 * {@code <p>} is the key prefix (the graph's, {@code graph.redis.key-prefix}): empty in production, a
 * fresh one per test.
 */
public final class LastReadKeys {

    private final String prefix;

    public LastReadKeys(String prefix) {
        this.prefix = VirtualShards.checkedPrefix(prefix);
    }

    public String lastRead(long user) {
        return prefix + VirtualShards.tag(user) + ":fs:u:" + user + ":lr";
    }
}
