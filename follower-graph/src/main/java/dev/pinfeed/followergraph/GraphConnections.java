package dev.pinfeed.followergraph;

import dev.pinfeed.config.PinfeedConfig;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.curator.framework.CuratorFramework;

/**
 * What a graph process opens: the application ZooKeeper, the live shard map in it (seeded from the
 * configured instances), and the Redis store on that map. Configuration keys (besides the stack's):
 * {@code graph.redis.key-prefix} (default empty), {@code graph.redis.shards.znode} (default
 * {@value RedisShardConfig#ZNODE}).
 */
public final class GraphConnections implements AutoCloseable {

    private final CuratorFramework zk;
    private final RedisShardConfig shards;
    private final RedisGraphStore store;

    private GraphConnections(CuratorFramework zk, RedisShardConfig shards, RedisGraphStore store) {
        this.zk = zk;
        this.shards = shards;
        this.store = store;
    }

    public static GraphConnections open(PinfeedConfig config, String keyPrefix) throws Exception {
        CuratorFramework zk = RedisShardConfig.curator(config.appZookeeper(), config.appZookeeperNamespace());
        try {
            Set<String> names = config.redisInstances().stream().map(PinfeedConfig.ReplicatedHost::name).collect(Collectors.toSet());
            RedisShardConfig shards = RedisShardConfig.watch(zk, config.get("graph.redis.shards.znode", RedisShardConfig.ZNODE),
                    RedisGraphStore.defaultShardMap(config), names);
            return new GraphConnections(zk, shards, RedisGraphStore.connect(config.redisInstances(), shards, keyPrefix));
        } catch (Exception | Error e) {
            zk.close();
            throw e;
        }
    }

    public static String keyPrefix(PinfeedConfig config) {
        return config.get("graph.redis.key-prefix", "");
    }

    public RedisGraphStore store() {
        return store;
    }

    public RedisShardConfig shards() {
        return shards;
    }

    @Override
    public void close() {
        store.close();
        shards.close();
        zk.close();
    }
}
