package dev.pinfeed.redisshards;

import dev.pinfeed.config.zookeeper.WatchedZnode;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;

/**
 * The live shard → instance map, kept in ZooKeeper (the seed keeps shard configuration there) and
 * watched ({@link WatchedZnode}), so an operator moves shards without restarting anything. The znode is
 * seeded when absent; an operator's later edit wins. An edit that does not parse or names an instance
 * this process has no connection for is refused with a warning: the previous map stays.
 */
public final class RedisShardConfig implements Supplier<RedisShardMap>, AutoCloseable {

    /** Under the application namespace ({@code pinfeed}): {@code /pinfeed/config/redis-shards}. */
    public static final String ZNODE = "/config/redis-shards";

    private final WatchedZnode<RedisShardMap> znode;

    private RedisShardConfig(WatchedZnode<RedisShardMap> znode) {
        this.znode = znode;
    }

    /**
     * Seeds {@code path} with {@code seed} if absent, reads it, and watches it. Fails if the stored map
     * is unusable now: better not to start than to write to the wrong instances. {@code zk} is the
     * caller's (started, in the application namespace); it must outlive this watch.
     */
    public static RedisShardConfig watch(CuratorFramework zk, String path, RedisShardMap seed, Set<String> knownInstances)
            throws Exception {
        Set<String> known = Set.copyOf(knownInstances);
        return new RedisShardConfig(WatchedZnode.watch(zk, path, seed.format(), text -> check(RedisShardMap.parse(text), known),
                "redis shard map"));
    }

    private static RedisShardMap check(RedisShardMap map, Set<String> known) {
        for (String instance : map.instances()) {
            if (!known.contains(instance)) throw new IllegalArgumentException("shard map names unknown redis instance " + instance + " (known: " + known + ")");
        }
        return map;
    }

    @Override
    public RedisShardMap get() {
        return znode.get();
    }

    /** Called after each accepted change. */
    public void onChange(Consumer<RedisShardMap> listener) {
        znode.onChange(listener);
    }

    @Override
    public void close() {
        znode.close();
    }
}
