package dev.pinfeed.canonicalstore.redis;

import dev.pinfeed.canonicalstore.CanonicalCacheKeys;
import dev.pinfeed.canonicalstore.reads.CanonicalCache;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.redismasters.RedisMasterClients;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisCalls;
import dev.pinfeed.redisshards.RedisShardMap;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * {@link CanonicalCache} on the graph's Redis instances: an object's keys live on the instance the
 * graph's shard map ({@link RedisShardMap}, live from ZooKeeper in services) names for the object's
 * virtual shard ({@link CanonicalCacheKeys#shardOf}). A lookup is one MGET per instance (the
 * versions and the values); a fill is {@link #FILL} per object, pipelined per instance. An instance
 * that cannot be reached, times out, or is loading fails the call with {@link StoreUnavailableException}.
 */
public final class RedisCanonicalCache implements CanonicalCache, AutoCloseable {

    /**
     * KEYS[1] the version, KEYS[2..] the values; ARGV[1] the version the reader saw ("" for none),
     * ARGV[2] the time to live in ms, ARGV[3..] the values. Sets them only if the version is unchanged.
     */
    static final String FILL = """
            local seen = redis.call('GET', KEYS[1]) or ''
            if seen ~= ARGV[1] then return 0 end
            for i = 2, #KEYS do redis.call('SET', KEYS[i], ARGV[i + 1], 'PX', ARGV[2]) end
            return 1
            """;
    private static final String FILL_SHA = sha1(FILL);

    private final Map<String, RedisClient> clients;
    private final Supplier<RedisShardMap> shards;
    private final long ttlMillis;

    public RedisCanonicalCache(Map<String, RedisClient> clients, Supplier<RedisShardMap> shards, Duration ttl) {
        this.clients = clients; // live: a failover swaps an instance's client (RedisMasterClients)
        this.shards = shards;
        this.ttlMillis = ttl.toMillis();
    }

    /**
     * One pooled client per instance master, with short timeouts: a cache that hangs must cost a
     * request little more than one that is down, since either way the read goes to MySQL.
     */
    public static RedisMasterClients clients(PinfeedConfig config, Duration timeout, int poolSize) {
        return clients(RedisMasterConfig.fixed(config), timeout, poolSize);
    }

    /** {@link #clients(List, Duration, int)} on each instance's current master, following failovers. */
    public static RedisMasterClients clients(RedisMasterConfig masters, Duration timeout, int poolSize) {
        return RedisMasterClients.open(masters, new RedisMasterClients.Settings("pinfeed-canonical-cache", timeout, timeout, poolSize));
    }

    @Override
    public Map<Long, Lookup> lookup(Map<Long, List<String>> keysByObject) {
        Map<Long, Lookup> out = new HashMap<>();
        byInstance(keysByObject.keySet()).forEach((instance, ids) -> on(instance, () -> {
            // One MGET per instance (each object's version, then its values): one command to encode and answer, not one per key.
            List<String> keys = new ArrayList<>();
            for (Long id : ids) {
                keys.add(CanonicalCacheKeys.version(id));
                keys.addAll(keysByObject.get(id));
            }
            List<String> got = client(instance).mget(keys.toArray(String[]::new));
            int at = 0;
            for (Long id : ids) {
                String version = got.get(at++);
                Map<String, String> v = new HashMap<>();
                for (String key : keysByObject.get(id)) v.put(key, got.get(at++));
                out.put(id, new Lookup(version == null ? "" : version, v));
            }
            return null;
        }));
        return out;
    }

    @Override
    public void fill(List<Fill> fills) {
        Map<Long, Fill> byId = new HashMap<>();
        fills.forEach(f -> byId.put(f.objectId(), f));
        byInstance(byId.keySet()).forEach((instance, ids) -> RedisCalls.write(shards, instance,
                ids.stream().mapToInt(CanonicalCacheKeys::shardOf).distinct().toArray(), () -> {
            try {
                fillOn(instance, ids, byId);
            } catch (JedisNoScriptException e) {
                client(instance).scriptLoad(FILL); // a restarted instance forgot the script
                fillOn(instance, ids, byId);
            }
            return null;
        }));
    }

    private void fillOn(String instance, List<Long> ids, Map<Long, Fill> byId) {
        List<Response<Object>> replies = new ArrayList<>();
        try (Pipeline p = client(instance).pipelined()) {
            for (Long id : ids) {
                Fill f = byId.get(id);
                List<String> keys = new ArrayList<>();
                List<String> args = new ArrayList<>();
                keys.add(CanonicalCacheKeys.version(id));
                args.add(f.version());
                args.add(Long.toString(ttlMillis));
                f.values().forEach((k, v) -> {
                    keys.add(k);
                    args.add(v);
                });
                replies.add(p.evalsha(FILL_SHA, keys, args));
            }
            p.sync();
        }
        for (Response<Object> r : replies) r.get(); // throws the first script error, NOSCRIPT included
    }

    private Map<String, List<Long>> byInstance(Iterable<Long> ids) {
        RedisShardMap map = shards.get();
        Map<String, List<Long>> out = new LinkedHashMap<>();
        for (Long id : ids) out.computeIfAbsent(map.instanceOf(CanonicalCacheKeys.shardOf(id)), k -> new ArrayList<>()).add(id);
        return out;
    }

    private RedisClient client(String instance) {
        return RedisCalls.client(clients, instance);
    }

    private static <T> T on(String instance, Supplier<T> call) {
        return RedisCalls.on(instance, call);
    }

    private static String sha1(String s) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-1").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        RedisCalls.close(clients);
    }
}
