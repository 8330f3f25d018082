package dev.pinfeed.redisshards;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.redismasters.RedisMasterConfig;
import java.util.List;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;

/**
 * What a process opens to reach pinfeed's sharded Redis instances, on the caller's application
 * ZooKeeper client: the live virtual shard → instance map (seeded from the configured instances) and
 * the live master of each instance (moved by a failover). Every Redis adapter (graph, canonical caches,
 * last reads, affinities, idempotency keys) follows both. Configuration keys (besides the stack's):
 * {@code graph.redis.key-prefix} (the prefix of every key on these instances, default empty),
 * {@code graph.redis.shards.znode} (default {@value RedisShardConfig#ZNODE}), {@code graph.redis.shards}
 * (the map a new znode is seeded with; default: the shards split evenly over {@code redis.instances}).
 */
public final class RedisShards implements AutoCloseable {

    private final RedisShardConfig shards;
    private final RedisMasterConfig masters;

    private RedisShards(RedisShardConfig shards, RedisMasterConfig masters) {
        this.shards = shards;
        this.masters = masters;
    }

    /**
     * {@code zk}: a started client in the application namespace ({@link PinfeedConfig#appZookeeperNamespace()}).
     * It stays the caller's: {@link #close()} leaves it open, and it must outlive these watches.
     */
    public static RedisShards open(PinfeedConfig config, CuratorFramework zk) throws Exception {
        RedisShardConfig shards = RedisShardConfig.watch(zk, config.get("graph.redis.shards.znode", RedisShardConfig.ZNODE),
                defaultShardMap(config), Set.copyOf(instanceNames(config)));
        try {
            return new RedisShards(shards, RedisMasterConfig.watch(config, zk));
        } catch (Exception | Error e) {
            shards.close();
            throw e;
        }
    }

    /** The prefix of every pinfeed key on the instances ({@code graph.redis.key-prefix}, default empty). */
    public static String keyPrefix(PinfeedConfig config) {
        return VirtualShards.checkedPrefix(config.get("graph.redis.key-prefix", ""));
    }

    /**
     * The seed of the ZooKeeper map: {@code graph.redis.shards} if set (so instances added for moves start
     * empty), else the even split of the shards over the configured instances.
     */
    public static RedisShardMap defaultShardMap(PinfeedConfig config) {
        return config.find("graph.redis.shards").map(RedisShardMap::parse).orElseGet(() -> RedisShardMap.evenlyOver(instanceNames(config)));
    }

    private static List<String> instanceNames(PinfeedConfig config) {
        return config.redisInstances().stream().map(PinfeedConfig.ReplicatedHost::name).toList();
    }

    public RedisShardConfig shards() {
        return shards;
    }

    /** The live instance → master map (znode {@value RedisMasterConfig#ZNODE_KEY}). */
    public RedisMasterConfig masters() {
        return masters;
    }

    /** Closes both watches; not the ZooKeeper client. */
    @Override
    public void close() {
        masters.close();
        shards.close();
    }
}
