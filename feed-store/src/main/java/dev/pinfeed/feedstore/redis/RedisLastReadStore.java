package dev.pinfeed.feedstore.redis;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedstore.LastReadStore;
import dev.pinfeed.redismasters.RedisMasterClients;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisCalls;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import dev.pinfeed.redisshards.VirtualShards;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@link LastReadStore} on the follower graph's Redis instances (keys per {@link LastReadKeys}, placed by
 * the graph's live shard map): a batch read is one MGET per instance, a record one script (the newer
 * time wins) followed by a replication barrier. An instance that does not answer, is busy or still
 * loading makes the call throw {@link dev.pinfeed.config.StoreUnavailableException} naming it.
 */
public final class RedisLastReadStore implements LastReadStore {

    /** KEYS: last-read key; ARGV: read time. Keeps the later of the two times. */
    static final String RECORD = """
            local held = tonumber(redis.call('GET', KEYS[1]) or '0')
            if tonumber(ARGV[1]) > held then redis.call('SET', KEYS[1], ARGV[1]) end
            return 1
            """;

    private final RedisMasterClients clients;
    private final Supplier<RedisShardMap> shards;
    private final LastReadKeys keys;
    private final Duration replicaWait;

    RedisLastReadStore(RedisMasterClients clients, Supplier<RedisShardMap> shards, LastReadKeys keys, Duration replicaWait) {
        this.clients = clients; // live: a failover swaps an instance's client
        this.shards = shards;
        this.keys = keys;
        this.replicaWait = replicaWait;
    }

    /**
     * Connects to every instance's current master, following failovers; {@code shards} (the graph's live
     * map) is asked on every call; a record waits up to {@code replicaWait} for a replica's confirmation.
     */
    public static RedisLastReadStore connect(RedisMasterConfig masters, Supplier<RedisShardMap> shards, String keyPrefix,
                                             Duration replicaWait) {
        return new RedisLastReadStore(RedisMasterClients.open(masters, new RedisMasterClients.Settings("pinfeed-last-reads",
                Duration.ofSeconds(2), Duration.ofSeconds(5), 8)), shards, new LastReadKeys(keyPrefix), replicaWait);
    }

    /**
     * On the sharded instances (following failovers and the live shard map), under {@code keyPrefix} (the
     * graph's); a record waits up to {@code feed.last-read.replica-wait-ms} (default 500) for a replica.
     */
    public static RedisLastReadStore open(PinfeedConfig config, RedisShards redis, String keyPrefix) {
        return connect(redis.masters(), redis.shards(), keyPrefix, Duration.ofMillis(config.getInt("feed.last-read.replica-wait-ms", 500)));
    }

    public LastReadKeys keys() {
        return keys;
    }

    @Override
    public boolean recordRead(long userId, long readMillis) {
        String instance = RedisCalls.write(shards, VirtualShards.of(userId), holder -> {
            RedisCalls.client(clients, holder).eval(RECORD, List.of(keys.lastRead(userId)), List.of(Long.toString(readMillis)));
            return holder;
        });
        return clients.unreplicated(List.of(instance), replicaWait).isEmpty(); // an instance gone since: not known to be replicated
    }

    @Override
    public Map<Long, Long> lastReads(Collection<Long> userIds) {
        Map<String, List<Long>> byInstance = new LinkedHashMap<>();
        for (Long u : new LinkedHashSet<>(userIds)) byInstance.computeIfAbsent(instanceOf(u), i -> new ArrayList<>()).add(u);
        Map<Long, Long> out = new HashMap<>();
        for (Map.Entry<String, List<Long>> e : byInstance.entrySet()) {
            List<Long> users = e.getValue();
            String[] names = users.stream().map(keys::lastRead).toArray(String[]::new);
            List<String> values = RedisCalls.on(e.getKey(), () -> RedisCalls.client(clients, e.getKey()).mget(names));
            for (int i = 0; i < users.size(); i++) {
                if (values.get(i) != null) out.put(users.get(i), Long.parseLong(values.get(i)));
            }
        }
        return out;
    }

    private String instanceOf(long user) {
        return shards.get().instanceOf(VirtualShards.of(user));
    }

    @Override
    public void close() {
        RedisCalls.close(clients);
    }
}
