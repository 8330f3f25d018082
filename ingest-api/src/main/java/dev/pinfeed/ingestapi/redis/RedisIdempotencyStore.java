package dev.pinfeed.ingestapi.redis;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.ingestapi.core.IdempotencyStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.zip.CRC32C;
import redis.clients.jedis.RedisClient;

/**
 * Idempotency records in Redis: one hash per (scope, key) under {@code <prefix>idem:<len(scope)>:<scope>:<key>}
 * (this class owns that layout) on the instance the key hashes to, with fields fp (body
 * fingerprint), state (pending|done), status and body. Each step is one Lua script, so the check
 * and the claim cannot interleave with another request's.
 */
public final class RedisIdempotencyStore implements IdempotencyStore {

    private static final String BEGIN = """
            local fp = redis.call('HGET', KEYS[1], 'fp')
            if not fp then
              redis.call('HSET', KEYS[1], 'fp', ARGV[1], 'state', 'pending')
              redis.call('PEXPIRE', KEYS[1], ARGV[2])
              return {'started'}
            end
            if fp ~= ARGV[1] then return {'mismatch'} end
            local h = redis.call('HMGET', KEYS[1], 'state', 'status', 'body')
            if h[1] == 'pending' then return {'in_progress'} end
            return {'done', h[2], h[3]}
            """;
    private static final String COMPLETE = """
            local fp = redis.call('HGET', KEYS[1], 'fp')
            if fp and fp ~= ARGV[1] then return 0 end
            redis.call('HSET', KEYS[1], 'fp', ARGV[1], 'state', 'done', 'status', ARGV[2], 'body', ARGV[3])
            redis.call('PEXPIRE', KEYS[1], ARGV[4])
            return 1
            """;

    private static final String ABANDON = """
            local h = redis.call('HMGET', KEYS[1], 'fp', 'state')
            if h[1] == ARGV[1] and h[2] == 'pending' then return redis.call('DEL', KEYS[1]) end
            return 0
            """;

    private final List<RedisClient> instances;
    private final String prefix;

    /** {@code prefix} isolates namespaces (tests); production uses {@code pinfeed:}. */
    public RedisIdempotencyStore(List<HostPort> masters, String prefix) {
        this.instances = masters.stream().map(m -> RedisClient.create(m.host(), m.port())).toList();
        this.prefix = prefix;
    }

    /** The scope is length-prefixed: a ':' in a token name or key cannot make two pairs collide. */
    private String redisKey(String scope, String key) {
        return prefix + "idem:" + scope.length() + ":" + scope + ":" + key;
    }

    private RedisClient instanceOf(String redisKey) {
        CRC32C crc = new CRC32C();
        crc.update(redisKey.getBytes(StandardCharsets.UTF_8));
        return instances.get((int) (crc.getValue() % instances.size()));
    }

    @Override
    public Begin begin(String scope, String key, String fingerprint, Duration lease) {
        String k = redisKey(scope, key);
        @SuppressWarnings("unchecked")
        List<Object> answer = (List<Object>) instanceOf(k).eval(BEGIN, List.of(k), List.of(fingerprint, Long.toString(lease.toMillis())));
        return switch (text(answer.get(0))) {
            case "started" -> new Begin.Started();
            case "mismatch" -> new Begin.Mismatch();
            case "in_progress" -> new Begin.InProgress();
            default -> new Begin.Replay(new StoredAnswer(Integer.parseInt(text(answer.get(1))), text(answer.get(2))));
        };
    }

    @Override
    public void complete(String scope, String key, String fingerprint, StoredAnswer answer, Duration retention) {
        String k = redisKey(scope, key);
        instanceOf(k).eval(COMPLETE, List.of(k), List.of(fingerprint, Integer.toString(answer.status()), answer.body(),
                Long.toString(retention.toMillis())));
    }

    @Override
    public void abandon(String scope, String key, String fingerprint) {
        String k = redisKey(scope, key);
        instanceOf(k).eval(ABANDON, List.of(k), List.of(fingerprint));
    }

    private static String text(Object reply) {
        return reply instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(reply);
    }

    /** Answers PING on every instance or throws naming the one that did not. */
    public void ping() {
        for (RedisClient c : instances) c.ping();
    }

    @Override
    public void close() {
        instances.forEach(RedisClient::close);
    }
}
