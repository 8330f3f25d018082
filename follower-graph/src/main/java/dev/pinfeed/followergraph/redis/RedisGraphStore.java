package dev.pinfeed.followergraph.redis;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.followergraph.sharded.GraphKeys;
import dev.pinfeed.followergraph.sharded.ShardedGraphStore;
import dev.pinfeed.redismasters.RedisMasterClients;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import dev.pinfeed.redisshards.VirtualShards;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

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
    public Set<String> instances() {
        return new java.util.LinkedHashSet<>(backend.instances());
    }

    /** Health probe: PING one instance; throws {@link dev.pinfeed.config.StoreUnavailableException} naming it when down. */
    public void ping(String instance) {
        backend.ping(instance);
    }

    /**
     * A replication barrier (before a processor commits its offsets): the instances where no replica
     * acknowledged, within {@code timeout}, every write taken before the call. Empty means a failover
     * now would lose none of them.
     */
    public Set<String> unreplicated(Duration timeout) {
        return backend.unreplicated(timeout);
    }

    /** True when no instance holds a key under this store's prefix (a valid rebuild target). */
    public boolean isEmpty() {
        return !backend.anyKey(keys().everything());
    }

    /** Connects to the configured master of every instance (no failover following); {@code shards} is consulted on every call. */
    public static RedisGraphStore connect(PinfeedConfig config, Supplier<RedisShardMap> shards, String keyPrefix) {
        return connect(RedisMasterConfig.fixed(config), shards, keyPrefix);
    }

    /** Connects to every instance's current master and follows {@code masters} through failovers. */
    public static RedisGraphStore connect(RedisMasterConfig masters, Supplier<RedisShardMap> shards, String keyPrefix) {
        return new RedisGraphStore(new RedisBackend(clients(masters), shards), new GraphKeys(keyPrefix));
    }

    /** On the live shard and master maps of {@code redis} (both followed). */
    public static RedisGraphStore connect(RedisShards redis, String keyPrefix) {
        return connect(redis.masters(), redis.shards(), keyPrefix);
    }

    /** One pooled client per instance, on its current master, by instance name. */
    static RedisMasterClients clients(RedisMasterConfig masters) {
        return RedisMasterClients.open(masters, new RedisMasterClients.Settings("pinfeed-follower-graph", Duration.ofSeconds(2),
                Duration.ofSeconds(5), 16));
    }
}
