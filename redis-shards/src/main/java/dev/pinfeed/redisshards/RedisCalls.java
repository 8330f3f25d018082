package dev.pinfeed.redisshards;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.redismasters.RedisMasterClients;
import java.util.Map;
import java.util.function.Supplier;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisBusyException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * How every pinfeed Redis adapter talks to one instance of the shard map: its client by name, and a
 * call whose "not available" errors become a {@link StoreUnavailableException} naming the instance.
 */
public final class RedisCalls {

    private RedisCalls() {}

    /**
     * Runs {@code call} on {@code instance}: refused, reset or timed out (the connection), busy with a
     * script, still loading its data set or demoted to a replica by a failover is unavailable (retry later); any other Redis error is a bug
     * and passes on.
     */
    public static <T> T on(String instance, Supplier<T> call) {
        try {
            return call.get();
        } catch (JedisConnectionException e) {
            throw new StoreUnavailableException(instance, e.getMessage(), e);
        } catch (JedisDataException e) {
            String message = String.valueOf(e.getMessage());
            // READONLY: the server was a master and is a replica now (a failover); the clients follow the master map.
            if (e instanceof JedisBusyException || message.startsWith("LOADING") || message.startsWith("READONLY")) {
                throw new StoreUnavailableException(instance, e.getMessage(), e);
            }
            throw e;
        }
    }

    /**
     * A write of {@code shard}'s keys, with the instance holding it: through the live map's fence
     * ({@link RedisShardConfig#write(int, java.util.function.Function)}) when {@code shards} is one, so
     * writes pause while the shard moves; straight to the instance for a fixed map.
     */
    public static <T> T write(Supplier<RedisShardMap> shards, int shard, java.util.function.Function<String, T> call) {
        if (shards instanceof RedisShardConfig live) return live.write(shard, call);
        String instance = shards.get().instanceOf(shard);
        return on(instance, () -> call.apply(instance));
    }

    /**
     * A write of the keys of {@code written} (virtual shards the caller found on {@code instance}) on
     * {@code instance}: through the live map's fence ({@link RedisShardConfig#write(String, int[], Supplier)}).
     */
    public static <T> T write(Supplier<RedisShardMap> shards, String instance, int[] written, Supplier<T> call) {
        if (shards instanceof RedisShardConfig live) return live.write(instance, written, call);
        return on(instance, call);
    }

    /** Closes an adapter's clients: the live {@link RedisMasterClients} stops following the master map too. */
    public static void close(Map<String, RedisClient> clients) {
        if (clients instanceof RedisMasterClients live) {
            live.close();
        } else {
            clients.values().forEach(RedisClient::close);
        }
    }

    /** The client of {@code instance}; a shard map naming an instance the configuration lacks is a bug. */
    public static RedisClient client(Map<String, RedisClient> clients, String instance) {
        RedisClient c = clients.get(instance);
        if (c == null) throw new IllegalStateException("no connection for redis instance " + instance);
        return c;
    }
}
