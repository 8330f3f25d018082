package dev.pinfeed.followergraph.redis;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.followergraph.sharded.GraphKeys;
import dev.pinfeed.followergraph.sharded.ShardedGraphStore;
import dev.pinfeed.followergraph.sharded.VirtualShards;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;

/**
 * The follower graph in Redis (seed 004): keys per {@link GraphKeys}, 8192 virtual shards per
 * {@link VirtualShards}, placed on instances by a {@link RedisShardMap} (live from ZooKeeper in
 * services). Writes go to the masters; replicas are hot standbys and are not read. An instance that
 * does not answer makes a call fail with {@link dev.pinfeed.config.StoreUnavailableException} naming it.
 */
public final class RedisGraphStore extends ShardedGraphStore {

    private final RedisBackend backend;

    private RedisGraphStore(RedisBackend backend, GraphKeys keys) {
        super(backend, keys);
        this.backend = backend;
    }

    /** The Redis instances the graph is spread over, by name. */
    public java.util.Set<String> instances() {
        return backend.instances();
    }

    /** Health probe: PING one instance; throws {@link dev.pinfeed.config.StoreUnavailableException} naming it when down. */
    public void ping(String instance) {
        backend.ping(instance);
    }

    /** True when no instance holds a key under this store's prefix (a valid rebuild target). */
    public boolean isEmpty() {
        return !backend.anyKey(keys().everything());
    }

    /** Connects to the master of every configured instance; {@code shards} is consulted on every call. */
    public static RedisGraphStore connect(List<PinfeedConfig.ReplicatedHost> instances, Supplier<RedisShardMap> shards, String keyPrefix) {
        GraphKeys keys = new GraphKeys(keyPrefix);
        return new RedisGraphStore(new RedisBackend(clients(instances), shards), keys);
    }

    /** The even split of the shards over the configured instances: the seed of the ZooKeeper map. */
    public static RedisShardMap defaultShardMap(PinfeedConfig config) {
        return RedisShardMap.evenlyOver(config.redisInstances().stream().map(PinfeedConfig.ReplicatedHost::name).toList());
    }

    /** One pooled client per instance master, by instance name. */
    static Map<String, RedisClient> clients(List<PinfeedConfig.ReplicatedHost> instances) {
        Map<String, RedisClient> clients = new LinkedHashMap<>();
        for (PinfeedConfig.ReplicatedHost h : instances) {
            GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
            pool.setMaxTotal(16);
            pool.setMaxIdle(16);
            pool.setJmxEnabled(false);
            clients.put(h.name(), RedisClient.builder().hostAndPort(h.master().host(), h.master().port()).poolConfig(pool)
                    .clientConfig(DefaultJedisClientConfig.builder().clientName("pinfeed-follower-graph")
                            .connectionTimeoutMillis(2_000).socketTimeoutMillis(5_000).build())
                    .build());
        }
        return clients;
    }
}
