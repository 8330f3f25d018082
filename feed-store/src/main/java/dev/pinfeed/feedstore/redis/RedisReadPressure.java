package dev.pinfeed.feedstore.redis;

import dev.pinfeed.feedstore.ReadPressure;
import dev.pinfeed.redismasters.RedisMasterClients;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisCalls;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import java.time.Duration;
import java.util.function.Supplier;
import redis.clients.jedis.params.SetParams;

/**
 * {@link ReadPressure} as one Redis key ({@link ReadPressureKeys}) on the instance the graph's live shard map gives virtual
 * shard 0: a raise is a SET with the hold as its TTL (Redis expires it), a look an EXISTS. An instance that does not answer
 * makes the call throw {@link dev.pinfeed.config.StoreUnavailableException} naming it.
 */
public final class RedisReadPressure implements ReadPressure {

    private final RedisMasterClients clients;
    private final Supplier<RedisShardMap> shards;
    private final ReadPressureKeys keys;

    RedisReadPressure(RedisMasterClients clients, Supplier<RedisShardMap> shards, ReadPressureKeys keys) {
        this.clients = clients; // live: a failover swaps an instance's client
        this.shards = shards;
        this.keys = keys;
    }

    /** Connects to every instance's current master, following failovers; {@code shards} (the graph's live map) is asked on every call. */
    public static RedisReadPressure connect(RedisMasterConfig masters, Supplier<RedisShardMap> shards, String keyPrefix) {
        return new RedisReadPressure(RedisMasterClients.open(masters, new RedisMasterClients.Settings("pinfeed-read-pressure",
                Duration.ofMillis(500), Duration.ofMillis(500), 2)), shards, new ReadPressureKeys(keyPrefix));
    }

    /** On the graph's sharded instances under {@code keyPrefix} (the graph's). */
    public static RedisReadPressure open(RedisShards redis, String keyPrefix) {
        return connect(redis.masters(), redis.shards(), keyPrefix);
    }

    public ReadPressureKeys keys() {
        return keys;
    }

    @Override
    public void raise(Duration hold) {
        long ms = Math.max(1, hold.toMillis());
        RedisCalls.write(shards, ReadPressureKeys.SHARD, instance -> RedisCalls.client(clients, instance)
                .set(keys.readPressure(), "1", SetParams.setParams().px(ms)));
    }

    @Override
    public boolean raised() {
        String instance = shards.get().instanceOf(ReadPressureKeys.SHARD);
        return RedisCalls.on(instance, () -> RedisCalls.client(clients, instance).exists(keys.readPressure()));
    }

    @Override
    public void close() {
        RedisCalls.close(clients);
    }
}
