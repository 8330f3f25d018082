package dev.pinfeed.ingestapi.redis;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.httpkit.HealthCheck;
import dev.pinfeed.ingestapi.core.IdempotencyStore;
import dev.pinfeed.redismasters.RedisMasterClients;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisCalls;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.zip.CRC32C;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisBusyException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Idempotency records in Redis: one hash per (scope, key) under {@code <prefix>idem:<len(scope)>:<scope>:<key>}
 * (this class owns that layout) on the instance the key hashes to, with fields fp (body
 * fingerprint), state (pending|done) and result (the stored {@code IngestResult}). Each step is one
 * Lua script, so the check and the claim cannot interleave with another request's. An instance that
 * cannot be reached, times out or is not serving yet is a {@link StoreUnavailableException} naming
 * {@value #STORE}; any other Redis error is a bug and passes on as it is.
 */
public final class RedisIdempotencyStore implements IdempotencyStore {

    /** The store name outages and the health check carry. */
    public static final String STORE = "redis";

    private static final String BEGIN = """
            local fp = redis.call('HGET', KEYS[1], 'fp')
            if not fp then
              redis.call('HSET', KEYS[1], 'fp', ARGV[1], 'state', 'pending')
              redis.call('PEXPIRE', KEYS[1], ARGV[2])
              return {'started'}
            end
            if fp ~= ARGV[1] then return {'mismatch'} end
            local h = redis.call('HMGET', KEYS[1], 'state', 'result')
            if h[1] == 'pending' then return {'in_progress'} end
            return {'done', h[2]}
            """;
    private static final String COMPLETE = """
            local fp = redis.call('HGET', KEYS[1], 'fp')
            if fp and fp ~= ARGV[1] then return 0 end
            redis.call('HSET', KEYS[1], 'fp', ARGV[1], 'state', 'done', 'result', ARGV[2])
            redis.call('PEXPIRE', KEYS[1], ARGV[3])
            return 1
            """;

    private static final String ABANDON = """
            local h = redis.call('HMGET', KEYS[1], 'fp', 'state')
            if h[1] == ARGV[1] and h[2] == 'pending' then return redis.call('DEL', KEYS[1]) end
            return 0
            """;

    private final Map<String, RedisClient> clients;
    private final List<String> instances;
    private final String prefix;

    /**
     * {@code clients}: one per instance by name, live ({@link RedisMasterClients} follows failovers); a
     * key's instance is by position in the sorted names, so every ingest instance agrees.
     * {@code prefix} isolates namespaces (tests); production uses {@code pinfeed:}.
     */
    public RedisIdempotencyStore(Map<String, RedisClient> clients, String prefix) {
        this.clients = clients;
        this.instances = clients.keySet().stream().sorted().toList();
        this.prefix = prefix;
    }

    /** Clients for {@link #RedisIdempotencyStore(Map, String)}: each instance's current master, following failovers. */
    public static RedisMasterClients clients(RedisMasterConfig masters) {
        return RedisMasterClients.open(masters, new RedisMasterClients.Settings("pinfeed-ingest-idempotency", Duration.ofSeconds(2),
                Duration.ofSeconds(2), 16));
    }

    /** The scope is length-prefixed: a ':' in a token name or key cannot make two pairs collide. */
    private String redisKey(String scope, String key) {
        return prefix + "idem:" + scope.length() + ":" + scope + ":" + key;
    }

    private RedisClient instanceOf(String redisKey) {
        CRC32C crc = new CRC32C();
        crc.update(redisKey.getBytes(StandardCharsets.UTF_8));
        return clients.get(instances.get((int) (crc.getValue() % instances.size())));
    }

    @Override
    public Begin begin(String scope, String key, String fingerprint, Duration lease) {
        String k = redisKey(scope, key);
        @SuppressWarnings("unchecked")
        List<Object> answer = (List<Object>) call("claiming an Idempotency-Key",
                () -> instanceOf(k).eval(BEGIN, List.of(k), List.of(fingerprint, Long.toString(lease.toMillis()))));
        return switch (text(answer.get(0))) {
            case "started" -> new Begin.Started();
            case "mismatch" -> new Begin.Mismatch();
            case "in_progress" -> new Begin.InProgress();
            default -> new Begin.Replay(answer.size() > 1 && answer.get(1) != null ? text(answer.get(1)) : null);
        };
    }

    @Override
    public void complete(String scope, String key, String fingerprint, String result, Duration retention) {
        String k = redisKey(scope, key);
        call("storing a result", () -> instanceOf(k).eval(COMPLETE, List.of(k),
                List.of(fingerprint, result, Long.toString(retention.toMillis()))));
    }

    @Override
    public void abandon(String scope, String key, String fingerprint) {
        String k = redisKey(scope, key);
        call("releasing an Idempotency-Key", () -> instanceOf(k).eval(ABANDON, List.of(k), List.of(fingerprint)));
    }

    /** Runs one command, turning an outage of the instance into {@link StoreUnavailableException}. */
    private static <T> T call(String what, Supplier<T> command) {
        try {
            return command.get();
        } catch (JedisConnectionException | JedisBusyException e) {
            throw new StoreUnavailableException(STORE, what + " failed: " + e.getMessage(), e);
        } catch (JedisDataException e) {
            if (transientError(e)) throw new StoreUnavailableException(STORE, what + " failed: " + e.getMessage(), e);
            throw e;
        }
    }

    /** Error replies of an instance that is starting, demoted or briefly unable to serve, not of a bad command. */
    private static boolean transientError(JedisDataException e) {
        String m = e.getMessage() == null ? "" : e.getMessage();
        return m.startsWith("LOADING") || m.startsWith("READONLY") || m.startsWith("MASTERDOWN") || m.startsWith("TRYAGAIN")
                || m.startsWith("BUSY");
    }

    private static String text(Object reply) {
        return reply instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(reply);
    }

    /** Returns when every instance answers PING; else {@link StoreUnavailableException} naming {@value #STORE}. */
    public void check() {
        for (String instance : instances) call("PING", () -> clients.get(instance).ping());
    }

    /** This store's readiness check, by name. */
    public Map<String, HealthCheck> healthChecks() {
        return Map.of(STORE, this::check);
    }

    @Override
    public void close() {
        RedisCalls.close(clients);
    }
}
