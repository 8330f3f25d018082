package dev.pinfeed.followergraph.redis;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.redismasters.RedisMasterConfig;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.curator.framework.CuratorFramework;

/**
 * What a graph process opens on the caller's application ZooKeeper client: the live shard map in it
 * (seeded from the configured instances), the live master of each instance (moved by a failover), and
 * the Redis store on both. Configuration keys (besides
 * the stack's): {@code graph.redis.key-prefix} (default empty), {@code graph.redis.shards.znode}
 * (default {@value RedisShardConfig#ZNODE}).
 */
public final class GraphConnections implements AutoCloseable {

    private final RedisShardConfig shards;
    private final RedisMasterConfig masters;
    private final RedisGraphStore store;

    private GraphConnections(RedisShardConfig shards, RedisMasterConfig masters, RedisGraphStore store) {
        this.shards = shards;
        this.masters = masters;
        this.store = store;
    }

    /**
     * {@code zk}: a started client in the application namespace ({@link PinfeedConfig#appZookeeperNamespace()}).
     * It stays the caller's: {@link #close()} leaves it open, and it must outlive these connections.
     */
    public static GraphConnections open(PinfeedConfig config, CuratorFramework zk, String keyPrefix) throws Exception {
        Set<String> names = config.redisInstances().stream().map(PinfeedConfig.ReplicatedHost::name).collect(Collectors.toSet());
        RedisShardConfig shards = RedisShardConfig.watch(zk, config.get("graph.redis.shards.znode", RedisShardConfig.ZNODE),
                RedisGraphStore.defaultShardMap(config), names);
        RedisMasterConfig masters = null;
        try {
            masters = RedisMasterConfig.watch(config, zk);
            return new GraphConnections(shards, masters, RedisGraphStore.connect(masters, shards, keyPrefix));
        } catch (Exception | Error e) {
            if (masters != null) masters.close();
            shards.close();
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

    /** The live instance → master map (znode {@value RedisMasterConfig#ZNODE_KEY}): other Redis adapters of the process follow it too. */
    public RedisMasterConfig masters() {
        return masters;
    }

    /** Closes the store and the shard-map watch; not the ZooKeeper client. */
    @Override
    public void close() {
        store.close();
        masters.close();
        shards.close();
    }
}
