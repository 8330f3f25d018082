package dev.pinfeed.feedservice;

import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalReads;
import dev.pinfeed.canonicalstore.reads.CachedCanonicalReads;
import dev.pinfeed.canonicalstore.reads.CacheListener;
import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.canonicalstore.reads.LivePins;
import dev.pinfeed.canonicalstore.reads.RecentLivePins;
import dev.pinfeed.canonicalstore.redis.RedisCanonicalCache;
import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.contentgenerator.CelebrityPull;
import dev.pinfeed.contentgenerator.InterestPull;
import dev.pinfeed.contentgenerator.PoolPull;
import dev.pinfeed.contentgenerator.ContentGenerator;
import dev.pinfeed.contentgenerator.GeneratorSettings;
import dev.pinfeed.contentgenerator.PoolRegenerator;
import dev.pinfeed.contentgenerator.RepinParents;
import dev.pinfeed.feedservice.homefeed.ChunkIds;
import dev.pinfeed.feedservice.homefeed.HomeFeed;
import dev.pinfeed.feedservice.homefeed.HomeFeedListener;
import dev.pinfeed.feedservice.homefeed.HomeFeedSettings;
import dev.pinfeed.feedstore.CelebrityPins;
import dev.pinfeed.feedstore.InterestPins;
import dev.pinfeed.feedstore.LastReadStore;
import dev.pinfeed.feedstore.MaterializedFeedStore;
import dev.pinfeed.feedstore.NoticingPoolStore;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.QuietPools;
import dev.pinfeed.feedstore.ReadAheadFeedStore;
import dev.pinfeed.feedstore.RememberedQuietPools;
import dev.pinfeed.feedstore.hbase.HBaseLayout;
import dev.pinfeed.feedstore.hbase.SpeculativeHBaseStores;
import dev.pinfeed.feedstore.redis.RedisCelebrityPins;
import dev.pinfeed.feedstore.redis.RedisInterestPins;
import dev.pinfeed.feedstore.redis.RedisLastReadStore;
import dev.pinfeed.feedstore.redis.RedisQuietPools;
import dev.pinfeed.feedstore.scoring.WeightedScorer;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.redis.GraphConnections;
import dev.pinfeed.httpkit.HealthCheck;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.JwtAuthenticator;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.mysqlshards.MysqlShardConfig;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.processorruntime.ProcessMain;
import dev.pinfeed.redismasters.RedisMasterClients;
import dev.pinfeed.redisshards.RedisShards;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.security.SecureRandom;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;

/**
 * The feed-service process: {@code feed.http} serves the read contract — the home feed (HBase pools
 * and materialized feed on the primary cluster, {@link HomeFeed}), graph queries and the canonical
 * objects (MySQL shards behind the Redis caches). Home feed keys: {@link HomeFeedSettings}, the
 * content generator's {@link GeneratorSettings}, the worker's scorer ({@link WeightedScorer}) for
 * regenerated pools, {@code feed.after-answer-threads} (8). Other keys: {@code feed.handler-threads} (32),
 * {@code feed.mysql.pool-size} (16 per shard host), {@code feed.cache.ttl-seconds} (600),
 * {@code feed.cache.timeout-ms} (250), {@code feed.cache.board-pins} (ids kept per board and order, 1000).
 * Runs on {@link ProcessMain}: quiet logging, named start steps that fail with one line, and on
 * SIGTERM the HTTP app stops first, then the stores.
 */
public final class FeedServiceServer {

    public static final String NAME = "feed-service";
    public static final String HTTP = "feed.http";

    private FeedServiceServer() {}

    /**
     * The app over {@code graph} and {@code reads}; {@code meters} is what /metrics serves (the process's one
     * registry, {@link FeedMetrics} included), {@code health} names the dependencies /health probes.
     */
    public static HttpApp app(PinfeedConfig config, ReaderAuth auth, GraphStore graph, CanonicalReads reads, PrometheusMeterRegistry meters,
                              Map<String, HealthCheck> health) {
        return routes(config, auth, graph, reads, knownObjects(reads), meters, health).build();
    }

    /** {@link #app}, with the home feed route over {@code homeFeed}. */
    public static HttpApp app(PinfeedConfig config, ReaderAuth auth, GraphStore graph, CanonicalReads reads, HomeFeed homeFeed,
                              PrometheusMeterRegistry meters, Map<String, HealthCheck> health) {
        return withHomeFeed(config, auth, graph, reads, homeFeed, meters, health).build();
    }

    private static HttpApp.Builder withHomeFeed(PinfeedConfig config, ReaderAuth auth, GraphStore graph, CanonicalReads reads, HomeFeed homeFeed,
                                                PrometheusMeterRegistry meters, Map<String, HealthCheck> health) {
        KnownObjects known = knownObjects(reads);
        HttpApp.Builder app = routes(config, auth, graph, reads, known, meters, health);
        new HomeFeedHttpApi(homeFeed, known, auth, new PinFragments(recentPinsMax(config), new FeedMetrics(meters))).routes(app);
        return app;
    }

    /** One per app: every route shares what it learned of which users exist. */
    private static KnownObjects knownObjects(CanonicalReads reads) {
        return new KnownObjects(reads, new ExistingUserIds(ExistingUserIds.DEFAULT_SLOTS));
    }

    private static HttpApp.Builder routes(PinfeedConfig config, ReaderAuth auth, GraphStore graph, CanonicalReads reads, KnownObjects known,
                                          PrometheusMeterRegistry meters, Map<String, HealthCheck> health) {
        HttpApp.Builder app = HttpApp.builder(NAME)
                .handlerThreads(config.getInt("feed.handler-threads", 32))
                .meterRegistry(meters)
                .openApiResource("/openapi/feed-service.json");
        auth.applyTo(app);
        health.forEach(app::healthCheck);
        new GraphHttpApi(graph, reads, known, auth).routes(app);
        new CanonicalHttpApi(reads, known, auth).routes(app);
        new InterestHttpApi(graph, reads, known, auth).routes(app);
        IdHttpApi.routes(app, auth.publicRead());
        return app;
    }

    /**
     * The home feed over the stores, {@code settings} and the generator's and scorer's keys from {@code config};
     * {@code threads} runs its generations and post-answer writes.
     */
    public static HomeFeed homeFeed(PinfeedConfig config, HomeFeedSettings settings, PoolStore pools, MaterializedFeedStore feeds,
                                    LastReadStore lastReads, CanonicalReads reads, GraphStore graph, HomeFeedThreads threads, HomeFeedListener listener, Clock clock) {
        return homeFeed(config, settings, pools, feeds, lastReads, reads, graph, CelebrityPins.NONE, threads, listener, clock);
    }

    /** {@link #homeFeed}, pulling celebrities' pins from {@code celebrityPins} ({@code feed.celebrity.*}). */
    public static HomeFeed homeFeed(PinfeedConfig config, HomeFeedSettings settings, PoolStore pools, MaterializedFeedStore feeds,
                                    LastReadStore lastReads, CanonicalReads reads, GraphStore graph, CelebrityPins celebrityPins,
                                    HomeFeedThreads threads, HomeFeedListener listener, Clock clock) {
        return homeFeed(config, settings, pools, feeds, lastReads, reads, reads, graph, celebrityPins, QuietPools.NONE, threads, listener, clock);
    }

    /**
     * {@link #homeFeed}, pulling celebrities' pins from {@code celebrityPins}, and not reading the pools of readers
     * {@code quietPools} knows are quiet; the pull's and the regeneration's pool writes are noticed there. Pages and
     * repin parents are hydrated through {@code pagePins} ({@link #recentPins}, or {@code reads} itself).
     */
    public static HomeFeed homeFeed(PinfeedConfig config, HomeFeedSettings settings, PoolStore readPools, MaterializedFeedStore feeds,
                                    LastReadStore lastReads, CanonicalReads reads, LivePins pagePins, GraphStore graph, CelebrityPins celebrityPins,
                                    QuietPools quietPools, HomeFeedThreads threads, HomeFeedListener listener, Clock clock) {
        return homeFeed(config, settings, readPools, feeds, lastReads, reads, pagePins, graph, celebrityPins, InterestPins.NONE, quietPools,
                threads, listener, clock);
    }

    /** {@link #homeFeed}, pulling popular interests' pins from {@code interestPins} too (with the {@code feed.celebrity.*} pull settings). */
    public static HomeFeed homeFeed(PinfeedConfig config, HomeFeedSettings settings, PoolStore readPools, MaterializedFeedStore feeds,
                                    LastReadStore lastReads, CanonicalReads reads, LivePins pagePins, GraphStore graph, CelebrityPins celebrityPins,
                                    InterestPins interestPins, QuietPools quietPools, HomeFeedThreads threads, HomeFeedListener listener,
                                    Clock clock) {
        PoolStore pools = NoticingPoolStore.over(readPools, quietPools, e -> listener.quietPools(HomeFeedListener.QuietPoolsOutcome.ERROR));
        WeightedScorer scorer = new WeightedScorer(WeightedScorer.Settings.from(config), clock);
        CelebrityPull.Settings pullSettings = CelebrityPull.Settings.from(config);
        PoolPull pull = PoolPull.all(new CelebrityPull(graph, celebrityPins, pools, scorer, pullSettings, clock),
                new InterestPull(graph, interestPins, pools, scorer, pullSettings, InterestPull.pinsEach(config), clock));
        PoolRegenerator regenerator = new PoolRegenerator(pools, feeds, reads, graph,
                new WeightedScorer(WeightedScorer.Settings.from(config), clock), settings.regeneration());
        // The generations' pool reads share their (unbounded) pool: a generation waits on its second source's read.
        // A repin's parent, for the one-parent-per-feed rule: the repins' own pins, one batch (cached) per chunk with repins.
        RepinParents parents = pinIds -> {
            Map<Long, Long> out = new HashMap<>();
            pagePins.livePins(List.copyOf(pinIds)).forEach((id, p) -> {
                if (p.parentPinId() != null) out.put(id, p.parentPinId());
            });
            return out;
        };
        ContentGenerator generator = new ContentGenerator(pools, GeneratorSettings.from(config), threads.generation(), parents);
        return new HomeFeed(pools, feeds, lastReads, pagePins, generator, regenerator, pull, quietPools, settings, clock,
                new ChunkIds(clock, new SecureRandom()), threads.generation(), threads.afterAnswer(), listener);
    }

    /** Page hydration's time to live of a pin in the process ({@link RecentLivePins}); 0 reads every page's pins from the caches. */
    public static final String RECENT_PINS_TTL_MS = "feed.recent-pins.ttl-ms";
    /** At most this many pins kept for page hydration, and as many pins' JSON kept for pages ({@link PinFragments}). */
    public static final String RECENT_PINS_MAX = "feed.recent-pins.max";

    /** {@code reads}' live pins kept in the process for {@value #RECENT_PINS_TTL_MS} (1 000 ms), at most {@value #RECENT_PINS_MAX} (50 000). */
    public static LivePins recentPins(PinfeedConfig config, CanonicalReads reads, CacheListener listener, Clock clock) {
        int ttl = nonNegativeMillis(config, RECENT_PINS_TTL_MS, 1_000);
        return RecentLivePins.over(reads, Duration.ofMillis(ttl), recentPinsMax(config), clock, listener);
    }

    /** How long a next page's read-ahead is kept ({@link ReadAheadFeedStore}); 0 reads every next page from HBase. */
    public static final String READ_AHEAD_TTL_MS = "feed.read-ahead.ttl-ms";
    /** How long a first page's view is kept ({@link ReadAheadFeedStore}); 0 reads every first page from HBase. */
    public static final String FIRST_PAGE_TTL_MS = "feed.read-ahead.first-page-ttl-ms";
    /** The name first page views' hits and misses are counted under ({@code feed_cache_lookups_total{cache}}). */
    public static final String FIRST_PAGE_CACHE = "first_page";
    /** How long the process remembers a reader's pools it found quiet ({@link RememberedQuietPools}); 0 = not remembered. */
    public static final String QUIET_POOLS_REMEMBER_MS = "feed.quiet-pools.remember-ms";
    /** How many pages a next page's read brings, itself included. */
    public static final String READ_AHEAD_PAGES = "feed.read-ahead.pages";
    /** At most this many readers' read-aheads are kept. */
    public static final String READ_AHEAD_MAX_USERS = "feed.read-ahead.max-users";
    /** The name read-ahead hits and misses are counted under ({@code feed_cache_lookups_total{cache}}). */
    public static final String READ_AHEAD_CACHE = "read_ahead";

    /**
     * {@code feeds} reading {@value #READ_AHEAD_PAGES} (4) pages at each next page and keeping them for
     * {@value #READ_AHEAD_TTL_MS} (5 000 ms), and keeping first page views for {@value #FIRST_PAGE_TTL_MS} (5 000 ms), for
     * at most {@value #READ_AHEAD_MAX_USERS} (2 000) readers.
     */
    public static MaterializedFeedStore readAhead(PinfeedConfig config, MaterializedFeedStore feeds, CacheListener listener, Clock clock) {
        int ttl = nonNegativeMillis(config, READ_AHEAD_TTL_MS, 5_000);
        int firstPageTtl = nonNegativeMillis(config, FIRST_PAGE_TTL_MS, 5_000);
        int pages = config.getInt(READ_AHEAD_PAGES, 4);
        if (pages < 2) throw new IllegalArgumentException(READ_AHEAD_PAGES + " must be >= 2: " + pages);
        int maxUsers = readAheadMaxUsers(config);
        return ReadAheadFeedStore.over(feeds, pages, Duration.ofMillis(ttl), Duration.ofMillis(firstPageTtl), maxUsers, clock,
                new ReadAheadFeedStore.Listener() {
                    @Override
                    public void lookup(boolean hit) {
                        count(READ_AHEAD_CACHE, hit);
                    }

                    @Override
                    public void firstPageLookup(boolean hit) {
                        count(FIRST_PAGE_CACHE, hit);
                    }

                    private void count(String cache, boolean hit) {
                        if (hit) listener.hits(cache, 1);
                        else listener.misses(cache, 1);
                    }
                });
    }

    /** {@code quietPools} remembering for {@value #QUIET_POOLS_REMEMBER_MS} (5 000 ms) the readers whose pools it saw quiet. */
    public static QuietPools rememberedQuietPools(PinfeedConfig config, QuietPools quietPools, Clock clock) {
        int ttl = nonNegativeMillis(config, QUIET_POOLS_REMEMBER_MS, 5_000);
        return RememberedQuietPools.over(quietPools, Duration.ofMillis(ttl), readAheadMaxUsers(config), clock);
    }

    private static int readAheadMaxUsers(PinfeedConfig config) {
        int maxUsers = config.getInt(READ_AHEAD_MAX_USERS, 2_000);
        if (maxUsers < 1) throw new IllegalArgumentException(READ_AHEAD_MAX_USERS + " must be >= 1: " + maxUsers);
        return maxUsers;
    }

    private static int nonNegativeMillis(PinfeedConfig config, String key, int fallback) {
        int ms = config.getInt(key, fallback);
        if (ms < 0) throw new IllegalArgumentException(key + " must be >= 0 (0 = off): " + ms);
        return ms;
    }

    private static int recentPinsMax(PinfeedConfig config) {
        int max = config.getInt(RECENT_PINS_MAX, 50_000);
        if (max < 1) throw new IllegalArgumentException(RECENT_PINS_MAX + " must be >= 1: " + max);
        return max;
    }

    /** The canonical reads of a process: MySQL through the sharded query API, behind the Redis caches on the graph's shard map. */
    public static CanonicalReads canonicalReads(PinfeedConfig config, ShardedDb db, RedisCanonicalCache cache, FeedMetrics metrics) {
        return new CachedCanonicalReads(new MysqlCanonicalReads(db), cache, metrics,
                config.getInt("feed.cache.board-pins", CachedCanonicalReads.DEFAULT_LIST_SIZE));
    }

    public static void main(String[] args) {
        ProcessMain.run(NAME, ctx -> {
            PinfeedConfig config = ctx.config();
            HostPort http = config.hostPort(HTTP);
            ReaderAuth auth = ctx.step("reading the reader token keys " + config.get("feed.auth.jwks-file", "(feed.auth.jwks-file is not set)"),
                    () -> ReaderAuth.from(config, Clock.systemUTC()));
            int warmUpChecks = config.getInt("feed.auth.warm-up-checks", 1_000);
            // Before it is ready: after a start every reader's token is new, and the first hundreds of checks ran JIT-cold.
            if (warmUpChecks > 0) ctx.step("warming up the reader token checks", () -> JwtAuthenticator.warmUp(warmUpChecks, Clock.systemUTC()));
            CuratorFramework zk = ctx.step("connecting to ZooKeeper " + config.appZookeeper(), ctx::curator);
            GraphConnections graph = ctx.closeOnExit(ctx.step("opening the follower graph in Redis",
                    () -> GraphConnections.open(config, zk, RedisShards.keyPrefix(config))));
            RedisMasterClients redis = ctx.closeOnExit(RedisCanonicalCache.clients(graph.masters(),
                    Duration.ofMillis(config.getInt("feed.cache.timeout-ms", 250)), config.getInt("feed.handler-threads", 32)));
            MysqlShardConfig mysqlShards = ctx.closeOnExit(ctx.step("reading the MySQL shard map", () -> MysqlShardConfig.watch(zk, config)));
            ShardDataSources mysql = ctx.closeOnExit(ShardDataSources.from(config, mysqlShards, "feed",
                    config.getInt("feed.mysql.pool-size", 16), Map.of()));
            ShardedDb db = ctx.closeOnExit(new ShardedDb(mysql));
            RedisCanonicalCache cache = new RedisCanonicalCache(redis, graph.shards(),
                    Duration.ofSeconds(config.getInt("feed.cache.ttl-seconds", 600)));
            Map<String, HealthCheck> health = new LinkedHashMap<>();
            // Looked up at each probe: a failover swaps the instance's client.
            redis.keySet().forEach(name -> health.put(name, () -> redis.get(name).ping()));
            for (String host : mysql.hosts()) health.put(host, () -> checkMysql(mysql, host));
            FeedMetrics metrics = new FeedMetrics(ctx.meters());
            CanonicalReads reads = canonicalReads(config, db, cache, metrics);
            // Every serving-path HBase read is speculative: the stage's home cluster (pools and materialized feed each on
            // their own, HBaseLayout), and the other cluster when the home fails or passes its learned cutoff (seed 002);
            // each stage's writes go to its home only.
            SpeculativeHBaseStores hbase = ctx.closeOnExit(ctx.step("connecting to HBase " + config.hbasePrimaryZookeeper()
                    + " and " + config.hbaseStandbyZookeeper() + " (" + HBaseLayout.from(config) + ")",
                    () -> SpeculativeHBaseStores.connect(config, ctx.meters())));
            health.put("hbase", hbase::pingEither);
            PoolStore pools = hbase.pools();
            MaterializedFeedStore feeds = readAhead(config, hbase.materializedFeed(), metrics, Clock.systemUTC());
            LastReadStore lastReads = ctx.closeOnExit(RedisLastReadStore.open(config, graph.redis(), graph.store().keys().prefix()));
            HomeFeedThreads threads = ctx.closeOnExit(HomeFeedThreads.from(config).bindTo(ctx.meters()));
            RedisCelebrityPins celebrityPins = ctx.closeOnExit(RedisCelebrityPins.open(config, graph.redis(), graph.store().keys().prefix()));
            RedisInterestPins interestPins = ctx.closeOnExit(RedisInterestPins.open(config, graph.redis(), graph.store().keys().prefix()));
            QuietPools quietPools = rememberedQuietPools(config,
                    ctx.closeOnExit(RedisQuietPools.open(config, graph.redis(), graph.store().keys().prefix())), Clock.systemUTC());
            HomeFeed homeFeed = homeFeed(config, HomeFeedSettings.from(config), pools, feeds, lastReads, reads,
                    recentPins(config, reads, metrics, Clock.systemUTC()), graph.store(), celebrityPins, interestPins, quietPools, threads, metrics,
                    Clock.systemUTC());
            // /metrics and what is failing are served on the admin address ({@code feed-service.admin.http}), not to readers.
            health.forEach(ctx::readiness);
            ctx.step("serving the admin endpoint", ctx::serveAdmin);
            // Registered last, so it closes first: no request runs on closed stores (then the post-answer writes drain).
            RunningHttpApp running = ctx.closeOnExit(ctx.step("serving HTTP on " + http,
                    () -> withHomeFeed(config, auth, graph.store(), reads, homeFeed, ctx.meters(), health).adminSeparately().build()
                            .start(http.host(), http.port())));
            ctx.describe("http " + running.baseUri());
        });
    }

    private static void checkMysql(ShardDataSources mysql, String host) throws Exception {
        if (!mysql.shardMap().hosts().contains(host)) return; // moved out of the live map since start: nothing routes there
        try (Connection c = mysql.connection(host)) {
            if (!c.isValid(2)) throw new IllegalStateException("master " + mysql.master(host) + " does not answer");
        }
    }
}
