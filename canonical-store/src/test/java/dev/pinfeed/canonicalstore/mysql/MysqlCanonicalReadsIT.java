package dev.pinfeed.canonicalstore.mysql;

import dev.pinfeed.canonicalstore.CanonicalCacheKeys;
import dev.pinfeed.canonicalstore.reads.CacheListener;
import dev.pinfeed.canonicalstore.reads.CachedCanonicalReads;
import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.canonicalstore.reads.CanonicalReadsContract;
import dev.pinfeed.canonicalstore.reads.CanonicalSeed;
import dev.pinfeed.canonicalstore.redis.RedisCanonicalCache;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.RedisClient;

/**
 * The reads contract against the real shard hosts (rows seeded with the query API under fresh ids),
 * read straight from MySQL and through the Redis caches in front of it (the seed invalidates as the
 * write side does: INCR the object's version, then DEL its keys).
 */
@ExtendWith(StackExtension.class)
class MysqlCanonicalReadsIT {

    private static TestStack stack;
    private static ShardDataSources sources;
    private static ShardedDb db;
    private static Map<String, RedisClient> redis;
    private static RedisShardMap shards;

    @BeforeAll
    static void connect(TestStack s) {
        stack = s;
        sources = ShardDataSources.from(s.config(), "canonical-reads-it", 8);
        db = new ShardedDb(sources);
        redis = RedisCanonicalCache.clients(s.config(), Duration.ofSeconds(2), 8);
        shards = RedisShards.defaultShardMap(s.config());
    }

    @AfterAll
    static void close() {
        db.close();
        sources.close();
        redis.values().forEach(RedisClient::close);
    }

    /** The write side's invalidation protocol, on the instance holding the object's keys. */
    static void invalidate(long objectId, List<String> keys) {
        RedisClient client = redis.get(shards.instanceOf(CanonicalCacheKeys.shardOf(objectId)));
        client.incr(CanonicalCacheKeys.version(objectId));
        client.del(keys.toArray(String[]::new));
    }

    static long freshLocal() {
        return (1L << 35) | (stack.freshId() & ((1L << 35) - 1));
    }

    @Nested
    class FromMysql extends CanonicalReadsContract {
        private final MysqlCanonicalReads reads = new MysqlCanonicalReads(db);
        private final CanonicalSeed seed = new MysqlCanonicalSeed(db, (id, keys) -> {});

        @Override
        protected CanonicalReads reads() {
            return reads;
        }

        @Override
        protected CanonicalSeed seed() {
            return seed;
        }

        @Override
        protected long freshLocal() {
            return MysqlCanonicalReadsIT.freshLocal();
        }
    }

    @Nested
    class ThroughTheRedisCaches extends CanonicalReadsContract {
        private final CachedCanonicalReads reads = new CachedCanonicalReads(new MysqlCanonicalReads(db),
                new RedisCanonicalCache(redis, () -> shards, Duration.ofMinutes(10)), CacheListener.NONE, 20);
        private final CanonicalSeed seed = new MysqlCanonicalSeed(db, MysqlCanonicalReadsIT::invalidate);

        @Override
        protected CanonicalReads reads() {
            return reads;
        }

        @Override
        protected CanonicalSeed seed() {
            return seed;
        }

        @Override
        protected long freshLocal() {
            return MysqlCanonicalReadsIT.freshLocal();
        }
    }
}
