package dev.pinfeed.feedworker.redis;

import dev.pinfeed.redisshards.VirtualShards;


/**
 * The worker's Redis keys, on the follower graph's instances; nothing else formats them. Both keys of
 * a user carry his virtual shard's hash tag ({@link VirtualShards#tag}), so they sit on the instance that
 * holds his graph keys and one script updates them together.
 *
 * <pre>
 * &lt;p&gt;{v&lt;s&gt;}:fw:u:&lt;U&gt;:lk   SET   the pins U likes that his affinities count
 * &lt;p&gt;{v&lt;s&gt;}:fw:u:&lt;U&gt;:af   HASH  author → how many of the author's pins U likes (no field: 0)
 * </pre>
 * {@code <p>} is the key prefix ({@code feed.worker.redis.key-prefix}): empty in production, a fresh one per test.
 */
public final class AffinityKeys {

    private final String prefix;

    public AffinityKeys(String prefix) {
        this.prefix = VirtualShards.checkedPrefix(prefix);
    }

    public String liked(long user) {
        return prefix + VirtualShards.tag(user) + ":fw:u:" + user + ":lk";
    }

    public String affinity(long user) {
        return prefix + VirtualShards.tag(user) + ":fw:u:" + user + ":af";
    }

    /** A pin or author id as a set member or hash field. */
    static String id(long id) {
        return Long.toString(id);
    }
}
