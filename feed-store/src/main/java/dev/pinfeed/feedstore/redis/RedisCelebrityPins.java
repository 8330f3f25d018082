package dev.pinfeed.feedstore.redis;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedstore.CelebrityPins;
import dev.pinfeed.redismasters.RedisMasterClients;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisCalls;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import dev.pinfeed.redisshards.VirtualShards;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import redis.clients.jedis.resps.Tuple;

/**
 * {@link CelebrityPins} on the follower graph's Redis instances (keys per {@link CelebrityKeys}, placed by the
 * graph's live shard map). A record is two writes whatever the author's follower count: one script on the
 * author's instance (ZADD, then the author's set cut to the newest {@code maxPerAuthor}) and one SADD of the
 * author to the celebrity set; both are idempotent. A read is one ZREVRANGEBYSCORE per author. An instance that
 * does not answer makes the call throw {@link dev.pinfeed.config.StoreUnavailableException} naming it.
 */
public final class RedisCelebrityPins implements CelebrityPins {

    /** KEYS: the author's pins; ARGV: score, member, how many to keep. */
    static final String RECORD = """
            redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
            redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -(tonumber(ARGV[3]) + 1))
            return 1
            """;

    /** KEYS: the author's pins; ARGV: the pin's member prefix. Bounded: the set holds at most maxPerAuthor members. */
    static final String REMOVE = """
            local n = 0
            for _, m in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
              if string.sub(m, 1, string.len(ARGV[1])) == ARGV[1] then n = n + redis.call('ZREM', KEYS[1], m) end
            end
            return n
            """;

    private final RedisMasterClients clients;
    private final Supplier<RedisShardMap> shards;
    private final CelebrityKeys keys;
    private final int maxPerAuthor;

    RedisCelebrityPins(RedisMasterClients clients, Supplier<RedisShardMap> shards, CelebrityKeys keys, int maxPerAuthor) {
        if (maxPerAuthor < 1) throw new IllegalArgumentException("feed.celebrity.recent-pins must be at least 1: " + maxPerAuthor);
        this.clients = clients; // live: a failover swaps an instance's client
        this.shards = shards;
        this.keys = keys;
        this.maxPerAuthor = maxPerAuthor;
    }

    /** Connects to every instance's current master, following failovers; keeps {@code maxPerAuthor} pins per author. */
    public static RedisCelebrityPins connect(RedisMasterConfig masters, Supplier<RedisShardMap> shards, String keyPrefix, int maxPerAuthor) {
        return new RedisCelebrityPins(RedisMasterClients.open(masters, new RedisMasterClients.Settings("pinfeed-celebrity-pins",
                Duration.ofSeconds(2), Duration.ofSeconds(5), 8)), shards, new CelebrityKeys(keyPrefix), maxPerAuthor);
    }

    /** On the graph's sharded instances under {@code keyPrefix} (the graph's), {@code feed.celebrity.recent-pins} (200) per author. */
    public static RedisCelebrityPins open(PinfeedConfig config, RedisShards redis, String keyPrefix) {
        return connect(redis.masters(), redis.shards(), keyPrefix, maxPerAuthor(config));
    }

    /** {@code feed.celebrity.recent-pins}: a reader pulls at most this many pins of one celebrity (200). */
    public static int maxPerAuthor(PinfeedConfig config) {
        return config.getInt("feed.celebrity.recent-pins", 200);
    }

    public CelebrityKeys keys() {
        return keys;
    }

    @Override
    public void record(RecentPin pin) {
        String key = keys.pins(pin.authorId());
        RedisCalls.write(shards, VirtualShards.of(pin.authorId()), instance -> RedisCalls.client(clients, instance).eval(RECORD, List.of(key),
                List.of(Long.toString(pin.createdAtMillis()), CelebrityKeys.member(pin.pinId(), pin.boardId()), Integer.toString(maxPerAuthor))));
        RedisCalls.write(shards, CelebrityKeys.SET_SHARD,
                instance -> RedisCalls.client(clients, instance).sadd(keys.celebrities(), Long.toString(pin.authorId())));
    }

    @Override
    public void remove(long authorId, long pinId) {
        String key = keys.pins(authorId);
        RedisCalls.write(shards, VirtualShards.of(authorId), instance -> RedisCalls.client(clients, instance).eval(REMOVE, List.of(key),
                List.of(CelebrityKeys.memberPrefix(pinId))));
    }

    @Override
    public Set<Long> celebrities() {
        String instance = shards.get().instanceOf(CelebrityKeys.SET_SHARD);
        Set<String> members = RedisCalls.on(instance, () -> RedisCalls.client(clients, instance).smembers(keys.celebrities()));
        Set<Long> out = new HashSet<>();
        for (String m : members) out.add(Long.parseLong(m));
        return out;
    }

    @Override
    public Map<Long, List<RecentPin>> recent(Collection<Long> authorIds, long sinceMillis) {
        Map<Long, List<RecentPin>> out = new LinkedHashMap<>();
        for (long author : new LinkedHashSet<>(authorIds)) {
            String instance = shards.get().instanceOf(VirtualShards.of(author));
            List<Tuple> held = RedisCalls.on(instance, () -> RedisCalls.client(clients, instance)
                    .zrevrangeByScoreWithScores(keys.pins(author), "+inf", Long.toString(sinceMillis)));
            if (held.isEmpty()) continue;
            List<RecentPin> pins = new ArrayList<>(held.size());
            for (Tuple t : held) {
                pins.add(new RecentPin(CelebrityKeys.pinOf(t.getElement()), author, CelebrityKeys.boardOf(t.getElement()), (long) t.getScore()));
            }
            out.put(author, pins);
        }
        return out;
    }

    @Override
    public void close() {
        RedisCalls.close(clients);
    }
}
