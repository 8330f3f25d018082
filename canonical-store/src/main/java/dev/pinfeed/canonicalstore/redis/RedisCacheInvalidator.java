package dev.pinfeed.canonicalstore.redis;

import dev.pinfeed.canonicalstore.CacheInvalidation;
import dev.pinfeed.canonicalstore.CacheInvalidator;
import dev.pinfeed.canonicalstore.CanonicalCacheKeys;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.redismasters.RedisMasterClients;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisCalls;
import dev.pinfeed.redisshards.RedisShardMap;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.RedisClient;

/**
 * The canonical caches' invalidation on the graph's Redis instances: an object's keys carry its
 * virtual shard ({@link CanonicalCacheKeys#shardOf}), and the graph's live shard map names the
 * instance of that shard. Per instance one pipeline: for each object {@code INCR} its version, then
 * {@code DEL} its value keys (the protocol in {@link CanonicalCacheKeys}). An instance that does not
 * answer is reported, not thrown, so the caller retries exactly the records whose keys live there.
 */
public final class RedisCacheInvalidator implements CacheInvalidator, AutoCloseable {

    private final Map<String, RedisClient> clients;
    private final Supplier<RedisShardMap> shards;

    RedisCacheInvalidator(Map<String, RedisClient> clients, Supplier<RedisShardMap> shards) {
        this.clients = clients; // live: a failover swaps an instance's client (RedisMasterClients)
        this.shards = shards;
    }

    /** Clients to the master of every configured instance; {@code shards} is asked on every call (live map). */
    public static RedisCacheInvalidator connect(PinfeedConfig config, Supplier<RedisShardMap> shards) {
        return connect(RedisMasterConfig.fixed(config), shards);
    }

    /** Clients to every instance's current master, following failovers; {@code shards} is asked on every call. */
    public static RedisCacheInvalidator connect(RedisMasterConfig masters, Supplier<RedisShardMap> shards) {
        // Short timeouts: a batch waits on this, and a failure only parks its records for a retry.
        return new RedisCacheInvalidator(RedisMasterClients.open(masters, new RedisMasterClients.Settings("pinfeed-canonical-cache",
                Duration.ofSeconds(1), Duration.ofSeconds(2), 4)), shards);
    }

    public Set<String> instances() {
        return clients.keySet();
    }

    @Override
    public String instanceOf(long objectId) {
        return shards.get().instanceOf(CanonicalCacheKeys.shardOf(objectId));
    }

    @Override
    public Map<String, StoreUnavailableException> invalidate(Collection<CacheInvalidation> invalidations) {
        // Per instance, per object: the union of its keys (a batch often touches one board many times).
        Map<String, Map<Long, Set<String>>> byInstance = new LinkedHashMap<>();
        for (CacheInvalidation i : invalidations) {
            byInstance.computeIfAbsent(instanceOf(i.objectId()), k -> new LinkedHashMap<>())
                    .computeIfAbsent(i.objectId(), k -> new LinkedHashSet<>()).addAll(i.keys());
        }
        Map<String, CompletableFuture<StoreUnavailableException>> running = new LinkedHashMap<>();
        byInstance.forEach((instance, objects) -> running.put(instance, CompletableFuture.supplyAsync(() -> {
            try {
                invalidateOn(instance, objects);
                return null;
            } catch (StoreUnavailableException e) {
                return e;
            }
        })));
        Map<String, StoreUnavailableException> failed = new TreeMap<>();
        running.forEach((instance, f) -> {
            StoreUnavailableException e = f.join();
            if (e != null) failed.put(instance, e);
        });
        return failed;
    }

    private void invalidateOn(String instance, Map<Long, Set<String>> objects) {
        RedisClient client = client(instance);
        int[] written = objects.keySet().stream().mapToInt(CanonicalCacheKeys::shardOf).distinct().toArray();
        RedisCalls.write(shards, instance, written, () -> {
            try (Pipeline p = client.pipelined()) {
                for (Map.Entry<Long, Set<String>> o : objects.entrySet()) {
                    p.incr(CanonicalCacheKeys.version(o.getKey()));
                    if (!o.getValue().isEmpty()) p.del(o.getValue().toArray(String[]::new));
                }
                p.sync();
            }
            return null;
        });
    }

    /** Readiness: {@link StoreUnavailableException} when {@code instance} does not answer. */
    public void ping(String instance) {
        RedisClient client = client(instance);
        on(instance, client::ping);
    }

    private RedisClient client(String instance) {
        return RedisCalls.client(clients, instance);
    }

    private static <T> T on(String instance, Supplier<T> call) {
        return RedisCalls.on(instance, call);
    }

    @Override
    public void close() {
        RedisCalls.close(clients);
    }
}
