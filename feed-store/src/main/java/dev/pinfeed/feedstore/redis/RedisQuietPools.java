package dev.pinfeed.feedstore.redis;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedstore.QuietPools;
import dev.pinfeed.redismasters.RedisMasterClients;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisCalls;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import dev.pinfeed.redisshards.VirtualShards;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * {@link QuietPools} on the follower graph's Redis instances (one key per user, {@link QuietPoolKeys}, placed by the
 * graph's live shard map): a look and a mark are one script each, a notice one DEL per instance for all its users. The
 * mark and the tickets expire after {@code maxAge} (Redis's own TTL). An instance that does not answer makes the call
 * throw {@link dev.pinfeed.config.StoreUnavailableException} naming it.
 */
public final class RedisQuietPools implements QuietPools {

    /** The configuration key of the marks' maximum age; 0 turns quiet pools off ({@link #open}). */
    public static final String MAX_AGE_MS = "feed.quiet-pools.max-age-ms";

    /** KEYS: the user's key; ARGV: a fresh ticket, its TTL ms. Returns "q" when quiet, else the ticket it stored. */
    static final String LOOK = """
            if redis.call('GET', KEYS[1]) == 'q' then return 'q' end
            redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
            return ARGV[1]
            """;

    /** KEYS: the user's key; ARGV: the look's ticket, the mark's TTL ms. Marks only while the key still holds the ticket. */
    static final String MARK = """
            if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
            redis.call('SET', KEYS[1], 'q', 'PX', ARGV[2])
            return 1
            """;

    private final RedisMasterClients clients;
    private final Supplier<RedisShardMap> shards;
    private final QuietPoolKeys keys;
    private final Duration maxAge;
    private final LongSupplier random;

    RedisQuietPools(RedisMasterClients clients, Supplier<RedisShardMap> shards, QuietPoolKeys keys, Duration maxAge, LongSupplier random) {
        if (maxAge.toMillis() < 1) throw new IllegalArgumentException(MAX_AGE_MS + " must be at least 1 ms: " + maxAge);
        this.clients = clients; // live: a failover swaps an instance's client
        this.shards = shards;
        this.keys = keys;
        this.maxAge = maxAge;
        this.random = random;
    }

    /** Connects to every instance's current master, following failovers; marks last at most {@code maxAge}; tickets from {@code random}. */
    public static RedisQuietPools connect(RedisMasterConfig masters, Supplier<RedisShardMap> shards, String keyPrefix, Duration maxAge,
                                          LongSupplier random) {
        return new RedisQuietPools(RedisMasterClients.open(masters, new RedisMasterClients.Settings("pinfeed-quiet-pools",
                Duration.ofSeconds(2), Duration.ofSeconds(5), 8)), shards, new QuietPoolKeys(keyPrefix), maxAge, random);
    }

    /**
     * On the graph's sharded instances under {@code keyPrefix} (the graph's), marks lasting {@value #MAX_AGE_MS} (60 000);
     * {@link QuietPools#NONE} when that is 0.
     */
    public static QuietPools open(PinfeedConfig config, RedisShards redis, String keyPrefix) {
        int maxAgeMs = config.getInt(MAX_AGE_MS, 60_000);
        if (maxAgeMs < 0) throw new IllegalStateException("configuration key '" + MAX_AGE_MS + "' must be 0 (off) or more: " + maxAgeMs);
        if (maxAgeMs == 0) return QuietPools.NONE;
        return connect(redis.masters(), redis.shards(), keyPrefix, Duration.ofMillis(maxAgeMs), () -> ThreadLocalRandom.current().nextLong());
    }

    public QuietPoolKeys keys() {
        return keys;
    }

    @Override
    public Look look(long userId) {
        String ticket = "t" + Long.toHexString(random.getAsLong());
        return "q".equals(eval(LOOK, userId, ticket)) ? Look.QUIET : new Look(false, ticket);
    }

    @Override
    public boolean markQuiet(long userId, Look look) {
        if (look.ticket() == null) return false;
        return Long.valueOf(1).equals(eval(MARK, userId, look.ticket()));
    }

    /** {@code script} on the user's key with ARGV (ticket, maxAge ms), through the live map's fence. */
    private Object eval(String script, long userId, String ticket) {
        return RedisCalls.write(shards, VirtualShards.of(userId), instance -> RedisCalls.client(clients, instance)
                .eval(script, List.of(keys.quietPools(userId)), List.of(ticket, Long.toString(maxAge.toMillis()))));
    }

    @Override
    public void written(Collection<Long> userIds) {
        RedisShardMap map = shards.get();
        Map<String, List<Long>> byInstance = new LinkedHashMap<>();
        for (Long u : new LinkedHashSet<>(userIds)) byInstance.computeIfAbsent(map.instanceOf(VirtualShards.of(u)), i -> new ArrayList<>()).add(u);
        for (Map.Entry<String, List<Long>> e : byInstance.entrySet()) {
            String instance = e.getKey();
            int[] written = e.getValue().stream().mapToInt(VirtualShards::of).distinct().toArray();
            String[] names = e.getValue().stream().map(keys::quietPools).toArray(String[]::new);
            // Through the live map's fence: a notice must not land on an instance its shard just left.
            RedisCalls.write(shards, instance, written, () -> RedisCalls.client(clients, instance).del(names));
        }
    }

    @Override
    public void close() {
        RedisCalls.close(clients);
    }
}
