package dev.pinfeed.feedservice;

import static dev.pinfeed.mysqlshards.query.Condition.eq;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.canonicalstore.CanonicalCacheKeys;
import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalReads;
import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalSeed;
import dev.pinfeed.canonicalstore.reads.CachedCanonicalReads;
import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.canonicalstore.reads.CanonicalRows;
import dev.pinfeed.canonicalstore.reads.CanonicalSeed;
import dev.pinfeed.canonicalstore.reads.ForwardingCanonicalRows;
import dev.pinfeed.canonicalstore.redis.RedisCanonicalCache;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.followergraph.sharded.InMemoryGraphStore;
import dev.pinfeed.httpkit.Meters;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.mysqlshards.query.Update;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.RedisClient;

/**
 * The canonical routes through the real HTTP app, MySQL shards and Redis caches: the route contract
 * (seeded under fresh ids, invalidating as the write side does: INCR version, then DEL), then the
 * caches themselves — a hit after a miss, an invalidation, a stale fill racing an invalidation, and
 * answers from MySQL while Redis is down.
 */
@ExtendWith(StackExtension.class)
class CanonicalReadsHttpIT extends CanonicalReadsHttpContract {

    private static TestStack stack;
    private static ShardDataSources sources;
    private static ShardedDb db;
    private static Map<String, RedisClient> redis;
    private static RedisShardMap shards;

    /** Runs after the store's pin read of a cache miss, before the fill: the place a writer races a reader. */
    private final AtomicReference<Runnable> afterPinRead = new AtomicReference<>(() -> {});
    private final PrometheusMeterRegistry metrics = Meters.newRegistry();
    private final FeedMetrics feedMetrics = new FeedMetrics(metrics);
    private final CanonicalReads reads = new CachedCanonicalReads(new RacingRows(new MysqlCanonicalReads(db)),
            new RedisCanonicalCache(redis, () -> shards, Duration.ofMinutes(10)), feedMetrics, CachedCanonicalReads.DEFAULT_LIST_SIZE);
    private final CanonicalSeed seed = new MysqlCanonicalSeed(db, CanonicalReadsHttpIT::invalidate);

    @BeforeAll
    static void connect(TestStack s) {
        stack = s;
        sources = ShardDataSources.from(s.config(), "canonical-http-it", 8);
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

    @Override
    protected CanonicalReads reads() {
        return reads;
    }

    @Override
    protected CanonicalSeed seed() {
        return seed;
    }

    @Override
    protected PrometheusMeterRegistry metrics() {
        return metrics;
    }

    @Override
    protected long freshLocal() {
        return (1L << 35) | (stack.freshId() & ((1L << 35) - 1));
    }

    private static RedisClient redisOf(long objectId) {
        return redis.get(shards.instanceOf(CanonicalCacheKeys.shardOf(objectId)));
    }

    /** The write side's protocol: bump the object's version, then drop its keys. */
    static void invalidate(long objectId, List<String> keys) {
        redisOf(objectId).incr(CanonicalCacheKeys.version(objectId));
        redisOf(objectId).del(keys.toArray(String[]::new));
    }

    /** A change to the pin's row in MySQL that tells nobody (the caches keep what they have). */
    private static void rewriteDetails(long pin, String details) {
        ShardedId id = ShardedId.decode(pin);
        db.write(id.shard(), Update.table(CanonicalLayout.PINS).jsonSet(CanonicalLayout.DATA, "$." + CanonicalLayout.Json.DETAILS, details)
                .where(eq(CanonicalLayout.LOCAL_ID, id.localId())));
    }

    @Test
    void aMissFillsTheCacheAndTheNextReadHitsItUntilTheWriteSideInvalidates() throws Exception {
        long ana = user();
        long board = board(ana);
        long pin = pin(board, ana, T0 + 1);

        assertThat(app.get("/v1/pins/" + pin, 200).get("details").asText()).isEqualTo("pin " + (T0 + 1));
        assertThat(redisOf(pin).get(CanonicalCacheKeys.pin(pin))).contains("pin " + (T0 + 1));
        long hits = feedMetrics.lookups("pin", "hit");
        rewriteDetails(pin, "changed");
        assertThat(app.get("/v1/pins/" + pin, 200).get("details").asText()).as("served from the cache").isEqualTo("pin " + (T0 + 1));
        assertThat(feedMetrics.lookups("pin", "hit")).isGreaterThan(hits);

        invalidate(pin, List.of(CanonicalCacheKeys.pin(pin), CanonicalCacheKeys.pinLikes(pin)));
        assertThat(app.get("/v1/pins/" + pin, 200).get("details").asText()).isEqualTo("changed");

        // The board's pin list: cached on the first read; a pin added behind its back stays unseen until the board is invalidated.
        assertThat(ids(app.get("/v1/boards/" + board + "/pins", 200), "id")).containsExactly(Long.toString(pin));
        long later = ShardedId.compose(ShardedId.decode(board).shard(), ObjectType.PIN, freshLocal());
        new MysqlCanonicalSeed(db, (id, keys) -> {}).pin(later, board, ana, "later", null, null, T0 + 2);
        assertThat(ids(app.get("/v1/boards/" + board + "/pins", 200), "id")).containsExactly(Long.toString(pin));
        invalidate(board, List.of(CanonicalCacheKeys.boardPins(board, "newest"), CanonicalCacheKeys.boardPins(board, "custom")));
        assertThat(ids(app.get("/v1/boards/" + board + "/pins", 200), "id")).containsExactly(Long.toString(later), Long.toString(pin));
    }

    @Test
    void aCommentAndItsPinsCountAreCachedUntilTheWriteSideInvalidatesThem() throws Exception {
        long ana = user();
        long pin = pin(board(ana), ana, T0 + 1);
        long first = comment(pin, ana, T0 + 2);

        assertThat(app.get("/v1/pins/" + pin, 200).get("comments").asLong()).isEqualTo(1);
        assertThat(redisOf(pin).get(CanonicalCacheKeys.pinComments(pin))).isEqualTo("1");
        assertThat(app.get("/v1/comments/" + first, 200).get("text").asText()).isEqualTo("comment " + (T0 + 2));
        assertThat(redisOf(first).get(CanonicalCacheKeys.comment(first))).contains("comment " + (T0 + 2));
        long hits = feedMetrics.lookups("comment", "hit");
        assertThat(ids(app.get("/v1/pins/" + pin + "/comments", 200), "id")).as("the list from MySQL, the comment from the cache")
                .containsExactly(Long.toString(first));
        assertThat(feedMetrics.lookups("comment", "hit")).isGreaterThan(hits);

        // Written behind the caches' back: the count stays until the pin's comment count is invalidated.
        MysqlCanonicalSeed quiet = new MysqlCanonicalSeed(db, (id, keys) -> {});
        long second = ShardedId.compose(ShardedId.decode(pin).shard(), ObjectType.COMMENT, freshLocal());
        quiet.comment(second, pin, ana, "second", T0 + 3);
        assertThat(app.get("/v1/pins/" + pin, 200).get("comments").asLong()).as("served from the cache").isEqualTo(1);
        invalidate(pin, List.of(CanonicalCacheKeys.pinComments(pin)));
        assertThat(app.get("/v1/pins/" + pin, 200).get("comments").asLong()).isEqualTo(2);
        quiet.deleteComment(first);
        assertThat(app.get("/v1/comments/" + first, 200).get("id").asText()).as("the cached comment").isEqualTo(Long.toString(first));
        invalidate(first, List.of(CanonicalCacheKeys.comment(first)));
        invalidate(pin, List.of(CanonicalCacheKeys.pinComments(pin)));
        assertThat(app.get("/v1/comments/" + first, 404).get("field").asText()).isEqualTo("commentId");
        assertThat(app.get("/v1/pins/" + pin, 200).get("comments").asLong()).isEqualTo(1);
        assertThat(ids(app.get("/v1/pins/" + pin + "/comments", 200), "id")).containsExactly(Long.toString(second));
    }

    @Test
    void aStaleFillThatRacedAnInvalidationIsRefused() throws Exception {
        long ana = user();
        long board = board(ana);
        long pin = pin(board, ana, T0 + 1);
        // The reader has read MySQL; before it fills, the writer commits a change and invalidates.
        afterPinRead.set(() -> {
            afterPinRead.set(() -> {});
            rewriteDetails(pin, "newer");
            invalidate(pin, List.of(CanonicalCacheKeys.pin(pin), CanonicalCacheKeys.pinLikes(pin)));
        });

        assertThat(app.get("/v1/pins/" + pin, 200).get("details").asText()).as("what the reader read").isEqualTo("pin " + (T0 + 1));
        assertThat(redisOf(pin).get(CanonicalCacheKeys.pin(pin))).as("the stale fill was refused").isNull();
        assertThat(app.get("/v1/pins/" + pin, 200).get("details").asText()).isEqualTo("newer");
        assertThat(redisOf(pin).get(CanonicalCacheKeys.pin(pin))).contains("newer");
    }

    @Test
    void withRedisDownEveryAnswerComesFromMysqlAndTheOutageIsCounted() throws Exception {
        long ana = user();
        long board = board(ana);
        long pin = pin(board, ana, T0 + 1);
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort(); // nothing listens here once the socket is closed
        }
        PinfeedConfig.ReplicatedHost down = new PinfeedConfig.ReplicatedHost("redis-down", new dev.pinfeed.config.HostPort("127.0.0.1", closed), null);
        Map<String, RedisClient> downClients = RedisCanonicalCache.clients(dev.pinfeed.redismasters.RedisMasterConfig.fixed(List.of(down), dev.pinfeed.redismasters.RedisClientSettings.none()), Duration.ofMillis(250), 4);
        PrometheusMeterRegistry m = Meters.newRegistry();
        FeedMetrics fm = new FeedMetrics(m);
        CanonicalReads degraded = new CachedCanonicalReads(new MysqlCanonicalReads(db),
                new RedisCanonicalCache(downClients, () -> RedisShardMap.evenlyOver(List.of("redis-down")), Duration.ofMinutes(10)), fm, 1000);
        try (FeedAppClient down1 = new FeedAppClient(
                auth -> FeedServiceServer.app(PinfeedConfig.of(new Properties()), auth, new InMemoryGraphStore(), degraded, m, Map.of()))) {
            assertThat(down1.get("/v1/pins/" + pin, 200).get("id").asText()).isEqualTo(Long.toString(pin));
            assertThat(ids(down1.get("/v1/boards/" + board + "/pins?order=custom", 200), "id")).containsExactly(Long.toString(pin));
            assertThat(down1.get("/v1/users/" + ana + "/counts", 200).get("pins").asLong()).isEqualTo(1);
            assertThat(fm.cacheErrors("redis-down")).isGreaterThanOrEqualTo(3);
            String scrape = new String(java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create(down1.base() + "/metrics")).build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body());
            assertThat(scrape).contains("feed_cache_errors_total{store=\"redis-down\"}");
        } finally {
            downClients.values().forEach(RedisClient::close);
        }
    }

    /** The MySQL rows, with a hook after each pin read (the test's writer runs there). */
    private final class RacingRows extends ForwardingCanonicalRows {
        RacingRows(CanonicalRows store) {
            super(store);
        }

        @Override
        public Map<Long, PinRow> pins(Collection<Long> pinIds) {
            Map<Long, PinRow> rows = super.pins(pinIds);
            afterPinRead.get().run();
            return rows;
        }
    }

}
