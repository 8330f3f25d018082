package dev.pinfeed.loadharness;

import dev.pinfeed.canonicalstore.redis.RedisCanonicalCache;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.RedisClient;

/**
 * The canonical store's MySQL shards and Redis caches as a canonical reads benchmark uses them, with its {@link BenchSeed}:
 * closing removes the seeded rows and the cache keys of {@link #cacheIds}, then closes the clients.
 */
final class SeededCanonicalStores implements AutoCloseable {

    final ShardDataSources sources;
    final ShardedDb db;
    final Map<String, RedisClient> redis;
    final RedisShardMap shards;
    final BenchSeed seed;
    /** The seeded objects whose cache keys reads may fill. */
    final List<Long> cacheIds = new ArrayList<>();

    private SeededCanonicalStores(PinfeedConfig config, int connectionsPerHost, int redisClients) {
        this.sources = ShardDataSources.from(config, "bench", connectionsPerHost);
        this.db = new ShardedDb(sources);
        this.redis = RedisCanonicalCache.clients(config, Duration.ofMillis(250), redisClients);
        this.shards = RedisShards.defaultShardMap(config);
        this.seed = new BenchSeed(db);
    }

    static SeededCanonicalStores open(PinfeedConfig config, int connectionsPerHost, int redisClients) {
        return new SeededCanonicalStores(config, connectionsPerHost, redisClients);
    }

    @Override
    public void close() {
        seed.removeWithCached(redis, shards, cacheIds);
        redis.values().forEach(RedisClient::close);
        db.close();
        sources.close();
    }
}
