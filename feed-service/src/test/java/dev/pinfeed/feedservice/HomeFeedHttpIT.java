package dev.pinfeed.feedservice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalReads;
import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalSeed;
import dev.pinfeed.canonicalstore.reads.CachedCanonicalReads;
import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.canonicalstore.reads.CanonicalSeed;
import dev.pinfeed.canonicalstore.redis.RedisCanonicalCache;
import dev.pinfeed.feedservice.homefeed.DelegatingPoolStore;
import dev.pinfeed.feedservice.homefeed.HomeFeed;
import dev.pinfeed.feedservice.homefeed.HomeFeedSettings;
import dev.pinfeed.feedstore.Chunk;
import dev.pinfeed.feedstore.FeedItem;
import dev.pinfeed.feedstore.MaterializedFeedStore;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.hbase.HBaseStages;
import dev.pinfeed.feedstore.hbase.HBaseMaterializedFeedStore;
import dev.pinfeed.feedstore.hbase.HBasePoolStore;
import dev.pinfeed.feedstore.redis.RedisLastReadStore;
import dev.pinfeed.feedstore.MutableClock;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.redis.RedisGraphStore;
import dev.pinfeed.followergraph.sharded.InMemoryGraphStore;
import dev.pinfeed.httpkit.Meters;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisShards;
import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.RedisClient;

/**
 * The home feed route through the real HTTP app over the primary HBase cluster (pools, materialized
 * feed), the MySQL shards behind the Redis caches (users, pins), for fresh users of the shared stack.
 */
@ExtendWith(StackExtension.class)
class HomeFeedHttpIT {

    private static final long T0 = 1_767_225_600_000L;
    private static TestStack stack;
    private static ShardDataSources sources;
    private static ShardedDb db;
    private static Map<String, RedisClient> redis;
    private static HBaseStages hbase;

    private final PrometheusMeterRegistry meters = Meters.newRegistry();
    private final FeedMetrics metrics = new FeedMetrics(meters);
    private final HBasePoolStore pools = hbase.pools();
    private final HBaseMaterializedFeedStore feeds = hbase.materializedFeed();
    /** What the app reads and writes the materialized feed through, as feed-service wires it: next pages read ahead. */
    private final MaterializedFeedStore servedFeeds = FeedServiceServer.readAhead(stack.config(), feeds, metrics, Clock.systemUTC());
    private final CanonicalReads reads = new CachedCanonicalReads(new MysqlCanonicalReads(db),
            new RedisCanonicalCache(redis, () -> RedisShards.defaultShardMap(stack.config()), Duration.ofMinutes(10)), metrics,
            CachedCanonicalReads.DEFAULT_LIST_SIZE);
    /** Fresh ids only, written before anything reads them: no cache holds them, so nothing to invalidate. */
    private final CanonicalSeed seed = new MysqlCanonicalSeed(db, (id, keys) -> {});
    /** Waits up to 5 s for a replica (500 ms in the service): the view's test checks the replicated path, on a loaded CI box too. */
    private final RedisLastReadStore lastReads = RedisLastReadStore.connect(RedisMasterConfig.fixed(stack.config()),
            () -> RedisShards.defaultShardMap(stack.config()), stack.keyPrefix("homefeed-http"), Duration.ofSeconds(5));
    private final HomeFeedThreads threads = new HomeFeedThreads(2, 1000);
    /** The generator's deadline where the test does not hold the generator back: the route, not the 50 ms default, is tested. */
    private static final Duration GENEROUS_DEADLINE = Duration.ofSeconds(30);
    /** Post-answer work (HBase writes) done within: a hang guard for a loaded box, not a timing. */
    private static final long DRAINED_WITHIN_MS = 30_000;
    private final List<FeedAppClient> apps = new ArrayList<>();

    @BeforeAll
    static void connect(TestStack s) {
        stack = s;
        sources = ShardDataSources.from(s.config(), "homefeed-http-it", 4);
        db = new ShardedDb(sources);
        redis = RedisCanonicalCache.clients(s.config(), Duration.ofSeconds(2), 4);
        hbase = HBaseStages.connect(s.config());
    }

    @AfterAll
    static void close() throws Exception {
        db.close();
        sources.close();
        redis.values().forEach(RedisClient::close);
        hbase.close();
    }

    @AfterEach
    void stop() throws Exception {
        apps.forEach(FeedAppClient::close);
        threads.close();
        pools.close();
        lastReads.close();
    }

    /** The app as feed-service wires it, its generator reading the pools through {@code generatorView}. */
    private FeedAppClient app(UnaryOperator<PoolStore> generatorView) {
        // A deadline for a loaded CI box: this test is about the route and the stores, the benchmark about the 50 ms default.
        // Only a generator the test holds back misses it (those tests set 200 ms), never one reading HBase slowly.
        return app(generatorView, GENEROUS_DEADLINE);
    }

    /** {@link #app(UnaryOperator)} with the generator deadline {@code generatorDeadline}. */
    private FeedAppClient app(UnaryOperator<PoolStore> generatorView, Duration generatorDeadline) {
        return app(generatorView, generatorDeadline, new InMemoryGraphStore(), Clock.systemUTC());
    }

    /** The app over {@code graph} (whom readers follow, for regenerated pools), its home feed on {@code clock}. */
    private FeedAppClient app(UnaryOperator<PoolStore> generatorView, Duration generatorDeadline, GraphStore graph, Clock clock) {
        HomeFeedSettings settings = HomeFeedSettings.from(stack.config()).withGeneratorDeadline(generatorDeadline)
                .withJournalDeadline(Duration.ofSeconds(30)); // a loaded box may take long to journal: not what these tests are about
        HomeFeed feed = FeedServiceServer.homeFeed(stack.config(), settings, generatorView.apply(pools), servedFeeds, lastReads, reads, graph, threads,
                metrics, clock);
        FeedAppClient app = new FeedAppClient(
                auth -> FeedServiceServer.app(stack.config(), auth, graph, reads, feed, meters, Map.of()));
        apps.add(app);
        return app;
    }

    private long freshLocal() {
        return (1L << 35) | (stack.freshId() & ((1L << 35) - 1));
    }

    private long user() {
        long local = freshLocal();
        long id = ShardedId.compose((int) (local % 4096), ObjectType.USER, local);
        seed.user(id, "hf" + Long.toString(local, 36), "Reader " + local, T0);
        return id;
    }

    /** {@code n} pins of a fresh author on one board. */
    private List<Long> pins(int n) {
        long author = user();
        long board = ShardedId.compose(ShardedId.decode(author).shard(), ObjectType.BOARD, freshLocal());
        seed.board(board, author, "Board", null, T0);
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long id = ShardedId.compose(ShardedId.decode(board).shard(), ObjectType.PIN, freshLocal());
            seed.pin(id, board, author, "pin " + id, null, null, T0 + i);
            out.add(id);
        }
        return out;
    }

    private void pool(long user, Source source, List<Long> pins, double topScore) {
        List<PoolEntry> entries = new ArrayList<>();
        for (int i = 0; i < pins.size(); i++) entries.add(new PoolEntry(user, source, topScore - i, pins.get(i), 1, 2, T0 + i));
        pools.upsert(entries);
    }

    /** An earlier view's chunk, already materialized (an old chunk id: new chunks go ahead of it). */
    private void materialized(long user, List<Long> pins) {
        feeds.materialize(new Chunk(user, 1L << 40, pins.stream().map(p -> new FeedItem(p, Source.FOLLOWED_USER, 0.5, 1, 2)).toList()));
    }

    private List<Long> poolPins(long user) {
        return pools.all(user).stream().map(PoolEntry::pinId).toList();
    }

    private List<Long> feedPins(long user) {
        return feeds.all(user).stream().map(p -> p.item().pinId()).toList();
    }

    /** {@code feed_late_chunks_total{outcome}} on this test's registry. */
    private double lateChunks(String outcome) {
        Counter c = meters.find("feed_late_chunks_total").tag("outcome", outcome).counter();
        return c == null ? 0 : c.count();
    }

    /** Until the late chunk's outcome is counted (it runs after the held generation is released): bounded, never a fixed sleep. */
    private void awaitLateChunk(String outcome) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).untilAsserted(() ->
                assertThat(lateChunks(outcome)).as("feed_late_chunks_total{outcome=%s}; after-answer failures: %s", outcome,
                        meters.find("feed_after_answer_failures_total").counter().count()).isEqualTo(1));
    }

    private static List<Long> ids(JsonNode page) {
        List<Long> out = new ArrayList<>();
        page.path("items").forEach(i -> out.add(Long.parseLong(i.path("pin").path("id").asText())));
        return out;
    }

    /**
     * The fan-out skips a reader who has not read his feed for {@code feed.active-days}; when he returns, his first read
     * fills his pools from whom he follows now (the real follower graph in Redis), so the pins he missed are there.
     * A reader back after a day gets no regeneration: his pools are the fan-out's.
     */
    @Test
    void aReaderBackAfterTheActiveDaysGetsHisPoolsRegeneratedFromWhomHeFollows() throws Exception {
        MutableClock clock = new MutableClock(System.currentTimeMillis());
        int activeDays = HomeFeedSettings.from(stack.config()).activeDays();
        try (RedisGraphStore graph = RedisGraphStore.connect(stack.config(), () -> RedisShards.defaultShardMap(stack.config()),
                stack.keyPrefix("homefeed-returning"))) {
            List<Long> missed = pins(3);
            long author = reads.pin(missed.get(0)).orElseThrow().authorId();
            // The graph knows the author's board (following him follows it), as the graph processor learns it from BoardCreated.
            graph.apply(new GraphCommand.CreateBoard(stack.freshId(), T0, reads.pin(missed.get(0)).orElseThrow().boardId(), author));
            long away = user();
            long back = user();
            for (long reader : List.of(away, back)) graph.apply(new GraphCommand.FollowUser(stack.freshId(), T0, reader, author));
            FeedAppClient app = app(p -> p, GENEROUS_DEADLINE, graph, clock);

            // Both read once (nothing in their pools: the author's pins were written while the fan-out skipped them).
            for (long reader : List.of(away, back)) assertThat(ids(app.get("/v1/users/" + reader + "/feed?limit=10", 200))).isEmpty();
            assertThat(threads.drain(DRAINED_WITHIN_MS)).isTrue();

            clock.advance(Duration.ofDays(1));
            assertThat(ids(app.get("/v1/users/" + back + "/feed?limit=10", 200))).as("back after a day: not regenerated").isEmpty();

            clock.advance(Duration.ofDays(activeDays));
            assertThat(ids(app.get("/v1/users/" + away + "/feed?limit=10", 200))).as("back after the active days: his pools regenerated")
                    .containsExactlyInAnyOrderElementsOf(missed);
            assertThat(threads.drain(DRAINED_WITHIN_MS)).isTrue();
            assertThat(poolPins(away)).as("served, so out of the pools").isEmpty();
            assertThat(feedPins(away)).containsExactlyInAnyOrderElementsOf(missed);
        }
    }

    @Test
    void aReaderPagingForwardGetsMostNextPagesFromItsReadAhead() throws Exception {
        long u = user();
        List<Long> old = pins(20);
        materialized(u, old);
        FeedAppClient app = app(p -> p);
        JsonNode page = app.get("/v1/users/" + u + "/feed?limit=3", 200);
        // The first view's writes (its state, a trim) land before the next pages: a write drops what was read ahead.
        assertThat(threads.drain(DRAINED_WITHIN_MS)).isTrue();
        List<Long> served = new ArrayList<>(ids(page));
        for (int i = 0; i < 6; i++) {
            page = app.get("/v1/users/" + u + "/feed?limit=3&cursor=" + page.path("cursor").asText(), 200);
            served.addAll(ids(page));
        }
        assertThat(served).as("seven pages in feed order").containsExactlyElementsOf(old);
        assertThat(page.path("cursor").isNull()).as("the seventh page ends the feed").isTrue();
        // Each read ahead brings four pages (feed.read-ahead.pages): pages 2-5, then 6-7.
        assertThat(metrics.lookups(FeedServiceServer.READ_AHEAD_CACHE, "miss")).as("pages 2 and 6 read HBase").isEqualTo(2);
        assertThat(metrics.lookups(FeedServiceServer.READ_AHEAD_CACHE, "hit")).as("pages 3, 4, 5 and 7 did not").isEqualTo(4);
        String second = app.get("/v1/users/" + u + "/feed?limit=3", 200).path("cursor").asText();
        assertThat(ids(app.get("/v1/users/" + u + "/feed?limit=3&cursor=" + second, 200))).as("the second page again")
                .containsExactlyElementsOf(old.subList(3, 6));
    }

    @Test
    void pooledPinsComeFirstWithSourceAndScoreThenTheMaterializedFeedPageByPage() throws Exception {
        long u = user();
        List<Long> fresh = pins(2);
        List<Long> old = pins(3);
        pool(u, Source.FOLLOWED_BOARD, fresh, 9.5);
        materialized(u, old);
        FeedAppClient app = app(p -> p);

        JsonNode first = app.get("/v1/users/" + u + "/feed?limit=3", 200);
        assertThat(ids(first)).containsExactly(fresh.get(0), fresh.get(1), old.get(0));
        assertThat(first.path("items").get(0).path("source").asText()).isEqualTo("followed_board");
        assertThat(first.path("items").get(0).path("score").asDouble()).isEqualTo(9.5);
        assertThat(first.path("items").get(2).path("source").asText()).isEqualTo("followed_user");
        assertThat(first.path("cursor").isTextual()).isTrue();

        JsonNode second = app.get("/v1/users/" + u + "/feed?limit=3&cursor=" + first.path("cursor").asText(), 200);
        assertThat(ids(second)).containsExactly(old.get(1), old.get(2));
        assertThat(second.path("cursor").isNull()).isTrue();

        assertThat(threads.drain(DRAINED_WITHIN_MS)).isTrue();
        assertThat(pools.all(u)).as("chosen pins leave the pools after the answer").isEmpty();
        assertThat(feeds.pending(u)).isEmpty();
        assertThat(feeds.all(u)).hasSize(5);
        assertThat(feeds.state(u).orElseThrow().nextChunkSize()).isEqualTo(25);
        assertThat(app.get("/v1/users/" + user() + "/feed", 200).path("items").size()).as("a fresh user's empty feed").isZero();
    }

    @Test
    void onlyTheOwnersTokenReadsAFeedWithItsSideEffectsAServiceOnlyLooks() throws Exception {
        long u = user();
        long other = user();
        List<Long> fresh = pins(2);
        List<Long> old = pins(2);
        pool(u, Source.FOLLOWED_USER, fresh, 7);
        materialized(u, old);
        FeedAppClient app = app(p -> p);
        String path = "/v1/users/" + u + "/feed";

        JsonNode none = app.get(path, null, 401);
        assertThat(none.path("type").asText()).endsWith("/unauthorized");
        assertThat(app.get(path, "not-a-token", 401).path("detail").asText()).contains("not a JWT");
        JsonNode foreign = app.get(path, app.userToken(other), 403);
        assertThat(foreign.path("type").asText()).endsWith("/forbidden");
        assertThat(foreign.path("detail").asText()).contains(Long.toString(other));
        assertThat(app.get("/v1/users/" + u + "/likes", app.userToken(other), 403).path("status").asInt()).isEqualTo(403);
        assertThat(app.get("/v1/users/" + u + "/following/users", null, 401).path("status").asInt()).isEqualTo(401);

        // A service reads the materialized feed and writes nothing: the pooled pins stay, no state, no read recorded.
        JsonNode looked = app.get(path + "?limit=10", app.serviceToken("feed-tests"), 200);
        assertThat(ids(looked)).containsExactly(old.get(0), old.get(1));
        assertThat(threads.drain(DRAINED_WITHIN_MS)).isTrue();
        assertThat(pools.all(u)).hasSize(2);
        assertThat(feeds.state(u)).isEmpty();
        assertThat(lastReads.lastReads(List.of(u))).as("a service's read does not make the user active").isEmpty();
        assertThat(feeds.all(u)).hasSize(2);

        // The owner's read generates, journals and records his read.
        JsonNode own = app.get(path + "?limit=10", app.userToken(u), 200);
        assertThat(ids(own)).containsExactly(fresh.get(0), fresh.get(1), old.get(0), old.get(1));
        assertThat(threads.drain(DRAINED_WITHIN_MS)).isTrue();
        assertThat(pools.all(u)).isEmpty();
        assertThat(feeds.all(u)).hasSize(4);
        assertThat(lastReads.lastReads(List.of(u))).containsOnlyKeys(u);
    }

    @Test
    void aFailingGeneratorStillServesTheMaterializedFeedAndTheNextChunkIsLarger() throws Exception {
        long u = user();
        List<Long> old = pins(1);
        List<Long> fresh = pins(30);
        materialized(u, old);
        pool(u, Source.FOLLOWED_USER, fresh, 50);

        JsonNode page = app(DelegatingPoolStore::failingReads).get("/v1/users/" + u + "/feed", 200);
        assertThat(ids(page)).containsExactly(old.get(0));
        assertThat(metrics.fallbacks("error")).isEqualTo(1);
        assertThat(threads.drain(DRAINED_WITHIN_MS)).isTrue();
        assertThat(feeds.state(u).orElseThrow().nextChunkSize()).isEqualTo(50);
        long readAt = feeds.state(u).orElseThrow().lastReadMillis();
        assertThat(lastReads.lastReads(List.of(u))).as("the view recorded in Redis for the fan-out, replicated, as in the state")
                .containsOnly(java.util.Map.entry(u, readAt));

        JsonNode next = app(p -> p).get("/v1/users/" + u + "/feed?limit=250", 200);
        assertThat(ids(next)).as("all 30 pooled pins fit the larger chunk, then the old one").hasSize(31).endsWith(old.get(0));
        assertThat(threads.drain(DRAINED_WITHIN_MS)).isTrue();
        assertThat(pools.all(u)).isEmpty();
        assertThat(feeds.state(u).orElseThrow().nextChunkSize()).isEqualTo(25);
    }

    @Test
    void aChunkPastTheDeadlineIsMaterializedWhenDoneAndTheNextViewShowsItFirst() throws Exception {
        long u = user();
        List<Long> old = pins(2);
        List<Long> fresh = pins(4);
        materialized(u, old);
        pool(u, Source.FOLLOWED_BOARD, fresh, 9.5);

        CountDownLatch release = new CountDownLatch(1);
        JsonNode first;
        try {
            // The generator's pool reads wait for the latch: the 200 ms deadline passes, the generation goes on.
            first = app(p -> DelegatingPoolStore.heldReads(p, release), Duration.ofMillis(200)).get("/v1/users/" + u + "/feed", 200);
        } finally {
            release.countDown();
        }
        assertThat(ids(first)).as("the materialized feed alone").containsExactlyElementsOf(old);
        assertThat(metrics.fallbacks("deadline")).isEqualTo(1);

        awaitLateChunk("kept");
        assertThat(lateChunks("dropped")).isZero();
        assertThat(threads.drain(DRAINED_WITHIN_MS)).isTrue();
        assertThat(feeds.pending(u)).as("journaled, then materialized").isEmpty();
        assertThat(poolPins(u)).as("the late chunk's pins left the HBase pools").isEmpty();
        assertThat(feedPins(u)).containsExactly(fresh.get(0), fresh.get(1), fresh.get(2), fresh.get(3), old.get(0), old.get(1));
        assertThat(feeds.state(u).orElseThrow().nextChunkSize()).as("a late generation still grows the next chunk").isEqualTo(50);

        FeedAppClient app = app(p -> p);
        JsonNode page1 = app.get("/v1/users/" + u + "/feed?limit=3", 200);
        assertThat(ids(page1)).as("the late chunk first").containsExactly(fresh.get(0), fresh.get(1), fresh.get(2));
        assertThat(page1.path("items").get(0).path("source").asText()).isEqualTo("followed_board");
        assertThat(page1.path("items").get(0).path("score").asDouble()).isEqualTo(9.5);
        assertThat(page1.path("cursor").isTextual()).isTrue();
        JsonNode page2 = app.get("/v1/users/" + u + "/feed?limit=3&cursor=" + page1.path("cursor").asText(), 200);
        assertThat(ids(page2)).as("the rest of the late chunk, then the old items").containsExactly(fresh.get(3), old.get(0), old.get(1));
        assertThat(page2.path("items").get(0).path("source").asText()).isEqualTo("followed_board");
        assertThat(page2.path("items").get(1).path("source").asText()).isEqualTo("followed_user");
        assertThat(page2.path("cursor").isNull()).isTrue();
        List<Long> served = new ArrayList<>(ids(page1));
        served.addAll(ids(page2));
        assertThat(served).as("each pin once across the pages").doesNotHaveDuplicates().hasSize(6);

        assertThat(threads.drain(DRAINED_WITHIN_MS)).isTrue();
        assertThat(feedPins(u)).as("the second view generated nothing new").hasSize(6);
        assertThat(lateChunks("kept")).isEqualTo(1);
    }

    @Test
    void aLateChunkIsDroppedWhenANewerViewRanMeanwhileAndItsPinsStayPooledForALaterView() throws Exception {
        long u = user();
        List<Long> old = pins(1);
        List<Long> fresh = pins(3);
        materialized(u, old);
        pool(u, Source.FOLLOWED_USER, fresh, 20);

        CountDownLatch release = new CountDownLatch(1);
        try {
            JsonNode first = app(p -> DelegatingPoolStore.heldReads(p, release), Duration.ofMillis(200)).get("/v1/users/" + u + "/feed", 200);
            assertThat(ids(first)).containsExactly(old.get(0));
            assertThat(metrics.fallbacks("deadline")).isEqualTo(1);
            assertThat(threads.drain(DRAINED_WITHIN_MS)).isTrue(); // the first view's state saved; its generation still held
            long firstRead = feeds.state(u).orElseThrow().lastReadMillis();

            // A newer first page whose generator fails: it takes no pin, but its read time moves the state on.
            JsonNode newer = app(DelegatingPoolStore::failingReads).get("/v1/users/" + u + "/feed", 200);
            assertThat(ids(newer)).containsExactly(old.get(0));
            assertThat(metrics.fallbacks("error")).isEqualTo(1);
            assertThat(threads.drain(DRAINED_WITHIN_MS)).isTrue();
            assertThat(feeds.state(u).orElseThrow().lastReadMillis()).as("the newer view's read time").isGreaterThan(firstRead);
            assertThat(lateChunks("kept") + lateChunks("dropped")).as("the first generation is still held").isZero();
        } finally {
            release.countDown();
        }

        awaitLateChunk("dropped");
        assertThat(lateChunks("kept")).isZero();
        assertThat(threads.drain(DRAINED_WITHIN_MS)).isTrue();
        assertThat(poolPins(u)).as("the dropped chunk's pins stay in the HBase pools").containsExactlyInAnyOrderElementsOf(fresh);
        assertThat(feeds.pending(u)).as("never journaled").isEmpty();
        assertThat(feedPins(u)).as("never materialized").containsExactly(old.get(0));

        JsonNode later = app(p -> p).get("/v1/users/" + u + "/feed?limit=250", 200);
        assertThat(ids(later)).as("each pooled pin once, then the old item")
                .containsExactly(fresh.get(0), fresh.get(1), fresh.get(2), old.get(0));
        assertThat(later.path("items").get(0).path("source").asText()).isEqualTo("followed_user");
        assertThat(threads.drain(DRAINED_WITHIN_MS)).isTrue();
        assertThat(poolPins(u)).isEmpty();
        assertThat(feedPins(u)).containsExactly(fresh.get(0), fresh.get(1), fresh.get(2), old.get(0));
        assertThat(lateChunks("dropped")).isEqualTo(1);
        assertThat(lateChunks("kept")).isZero();
    }
}
