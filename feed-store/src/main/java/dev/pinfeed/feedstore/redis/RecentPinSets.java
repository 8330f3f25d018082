package dev.pinfeed.feedstore.redis;

import dev.pinfeed.feedstore.CelebrityPins.RecentPin;
import dev.pinfeed.redismasters.RedisMasterClients;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisCalls;
import dev.pinfeed.redisshards.RedisShardMap;
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
import java.util.function.LongFunction;
import java.util.function.Supplier;
import redis.clients.jedis.resps.Tuple;

/**
 * Newest pins kept per owner (a celebrity author, a popular interest) in one sorted set each on the owner's virtual shard,
 * plus a small set of the owners on one shard: what {@link RedisCelebrityPins} and {@link RedisInterestPins} share. The
 * keys and members are their key classes'; this class only runs the commands. A record is two writes whatever the owner's
 * follower count, a read one ZREVRANGEBYSCORE per owner; an instance that does not answer makes the call throw
 * {@link dev.pinfeed.config.StoreUnavailableException} naming it.
 */
final class RecentPinSets {

    /** KEYS: the owner's pins; ARGV: score, member, how many to keep. */
    static final String RECORD = """
            redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
            redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -(tonumber(ARGV[3]) + 1))
            return 1
            """;

    /** KEYS: the owner's pins; ARGV: the pin's member prefix. Bounded: the set holds at most maxPerOwner members. */
    static final String REMOVE = """
            local n = 0
            for _, m in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
              if string.sub(m, 1, string.len(ARGV[1])) == ARGV[1] then n = n + redis.call('ZREM', KEYS[1], m) end
            end
            return n
            """;

    private final RedisMasterClients clients;
    private final Supplier<RedisShardMap> shards;
    private final int maxPerOwner;

    /** Connects to every instance's current master as {@code clientName}, following failovers; {@code setting} names {@code maxPerOwner} in errors. */
    static RecentPinSets connect(RedisMasterConfig masters, Supplier<RedisShardMap> shards, String clientName, int maxPerOwner, String setting) {
        return new RecentPinSets(RedisMasterClients.open(masters, new RedisMasterClients.Settings(clientName, Duration.ofSeconds(2),
                Duration.ofSeconds(5), 8)), shards, maxPerOwner, setting);
    }

    private RecentPinSets(RedisMasterClients clients, Supplier<RedisShardMap> shards, int maxPerOwner, String setting) {
        if (maxPerOwner < 1) throw new IllegalArgumentException(setting + " must be at least 1: " + maxPerOwner);
        this.clients = clients; // live: a failover swaps an instance's client
        this.shards = shards;
        this.maxPerOwner = maxPerOwner;
    }

    /** Adds {@code member} at {@code createdAtMillis} to {@code owner}'s pins at {@code key}, cut to the newest maximum; {@code owner} to the owners' set. */
    void record(long owner, String key, long createdAtMillis, String member, int setShard, String setKey) {
        RedisCalls.write(shards, VirtualShards.of(owner), instance -> RedisCalls.client(clients, instance).eval(RECORD, List.of(key),
                List.of(Long.toString(createdAtMillis), member, Integer.toString(maxPerOwner))));
        RedisCalls.write(shards, setShard, instance -> RedisCalls.client(clients, instance).sadd(setKey, Long.toString(owner)));
    }

    /** Removes from {@code owner}'s pins at {@code key} every member starting with {@code memberPrefix}. */
    void remove(long owner, String key, String memberPrefix) {
        RedisCalls.write(shards, VirtualShards.of(owner), instance -> RedisCalls.client(clients, instance).eval(REMOVE, List.of(key),
                List.of(memberPrefix)));
    }

    /** The owners' set. */
    Set<Long> owners(int setShard, String setKey) {
        String instance = shards.get().instanceOf(setShard);
        Set<String> members = RedisCalls.on(instance, () -> RedisCalls.client(clients, instance).smembers(setKey));
        Set<Long> out = new HashSet<>();
        for (String m : members) out.add(Long.parseLong(m));
        return out;
    }

    /**
     * Per owner with any, his newest pins created at or after {@code sinceMillis}, at most {@code maxEach}, newest first, each
     * member decoded with its owner and score.
     */
    Map<Long, List<RecentPin>> recent(Collection<Long> owners, LongFunction<String> key, long sinceMillis, int maxEach, Decoder decoder) {
        if (maxEach < 1) throw new IllegalArgumentException("maxEach must be at least 1: " + maxEach);
        Map<Long, List<RecentPin>> out = new LinkedHashMap<>();
        for (long owner : new LinkedHashSet<>(owners)) {
            String instance = shards.get().instanceOf(VirtualShards.of(owner));
            String since = Long.toString(sinceMillis);
            List<Tuple> held = RedisCalls.on(instance, () -> maxEach == Integer.MAX_VALUE
                    ? RedisCalls.client(clients, instance).zrevrangeByScoreWithScores(key.apply(owner), "+inf", since)
                    : RedisCalls.client(clients, instance).zrevrangeByScoreWithScores(key.apply(owner), "+inf", since, 0, maxEach));
            if (held.isEmpty()) continue;
            List<RecentPin> pins = new ArrayList<>(held.size());
            for (Tuple t : held) pins.add(decoder.decode(owner, t.getElement(), (long) t.getScore()));
            out.put(owner, pins);
        }
        return out;
    }

    /** A stored member back into its pin. */
    interface Decoder {
        RecentPin decode(long owner, String member, long createdAtMillis);
    }

    void close() {
        RedisCalls.close(clients);
    }
}
