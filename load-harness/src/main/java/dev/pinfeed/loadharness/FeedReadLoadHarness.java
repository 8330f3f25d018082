package dev.pinfeed.loadharness;

import static dev.pinfeed.loadharness.Args.intArg;
import static dev.pinfeed.loadharness.Args.stringArg;
import static dev.pinfeed.loadharness.HttpCalls.get;
import static dev.pinfeed.loadharness.HttpCalls.ok;

import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.canonicalstore.redis.RedisCanonicalCache;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedservice.FeedMetrics;
import dev.pinfeed.feedservice.FeedServiceServer;
import dev.pinfeed.feedservice.ReaderAuth;
import dev.pinfeed.httpkit.JwtIssuer;
import dev.pinfeed.httpkit.ReaderClaims;
import dev.pinfeed.feedservice.HomeFeedThreads;
import dev.pinfeed.feedservice.homefeed.FeedCursor;
import dev.pinfeed.feedservice.homefeed.HomeFeed;
import dev.pinfeed.feedservice.homefeed.HomeFeedSettings;
import dev.pinfeed.feedstore.Chunk;
import dev.pinfeed.feedstore.FeedItem;
import dev.pinfeed.feedstore.FeedPosition;
import dev.pinfeed.feedstore.MaterializedFeedStore;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.hbase.HBaseClusters;
import dev.pinfeed.feedstore.hbase.MaterializedKeys;
import dev.pinfeed.feedstore.hbase.HBaseLayout;
import dev.pinfeed.feedstore.hbase.HBaseStage;
import dev.pinfeed.feedstore.hbase.SpeculativeHBaseStores;
import dev.pinfeed.feedstore.redis.LastReadKeys;
import dev.pinfeed.feedstore.redis.RedisLastReadStore;
import dev.pinfeed.followergraph.redis.RedisGraphStore;
import dev.pinfeed.httpkit.Meters;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import dev.pinfeed.redisshards.VirtualShards;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Clock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Table;
import redis.clients.jedis.RedisClient;

/**
 * The home-feed read benchmark (a tool, not a test), in one run on one box against the local stack.
 * Seeds {@code --users} users (canonical rows, so the service knows them), a catalog of pins on a few
 * authors' boards (canonical rows: hydratable), and for each user a materialized feed of
 * {@code --feed-items} items in chunks of {@code --limit} and pools of {@code --pool-entries} entries
 * (both sources), all through feed-store's API under fresh ids. Then feed-service runs in-process as
 * its main assembles it (speculative primary/standby HBase stores, {@link HomeFeed}, canonical reads
 * over MySQL behind the Redis caches), or, with {@code --service-url}, a running one in its own JVM is
 * called (as deployed: its GC and JIT are not the readers'; read through its /metrics), and
 * {@code --clients} closed-loop readers (default 200) drive
 * {@code GET /v1/users/{id}/feed} over loopback HTTP (JDK HttpClient):
 * <ol>
 *   <li><b>raw</b>: a bare HBase scan of the same rows a page reads (the user's item rows after the
 *       cursor's position, {@code limit + 1}, {@link MaterializedKeys#pageScan}), same clients;</li>
 *   <li><b>materialized only</b>: a next page ({@code ?cursor=}: the position after the newest seeded
 *       chunk), so no generation: pending check, materialized read, hydration;</li>
 *   <li><b>with generation</b>: first pages (no cursor): the content generator over the pools beside the
 *       materialized read, the chunk journaled, after the answer removed from the pools and materialized.
 *       Users are taken round robin; the run goes in rounds of {@code --round-s}, and between rounds
 *       (untimed) the after-answer work drains and the pools of the users read are refilled to
 *       {@code --pool-entries}, so every first page has pins to generate from.</li>
 * </ol>
 * After each closed loop the same readers run open loop (each request due at a fixed rate, its latency
 * counted from its due time): at half the rate the closed loop reached, or at {@code --paced-rps} /
 * {@code --paced-generation-rps} when given, so runs can be compared at one load. The materialized
 * reads' paced phase goes in {@code --paced-rounds} rounds (default 1), each pacing, at that rate, the
 * bare scan (the floor on this box at that moment), {@link HomeFeed#read} in process (the service
 * without HTTP and JSON) and the HTTP read, one after the other; with more than one round the median of
 * the rounds' HTTP p99 over raw p99 is reported, since the box drifts more between runs than that ratio.
 * Each HTTP round also reports the service's own timing of the route (its {@code http_request_duration}
 * buckets) and its JVM's CPU, JIT and GC over the round, to tell the service's time from the clients' and the transport's.
 * The first pages' paced phase goes in as many rounds, each after its own JIT warm-up and a refill of the pools. Each paced phase of those rounds
 * first runs its own load untimed until the JIT has gone quiet: compiling for at most {@code --jit-quiet-permille} (5) of a
 * 2 s stretch, this JVM and the service's own together ({@code --jit-warmup-max-s}, default 60; 0: none; the paced paths
 * compiled for 10+ s after the closed loops, and a service still compiling ran at twice its later CPU per page), and
 * each paced phase starts once the stack has gone quiet ({@code --settle-cores-pct}): the writes before it keep
 * HBase busy for seconds.
 * Latency per request on the client (HdrHistogram): p50, p99, p99.9. The generator's fallbacks (late
 * or failed: a first page served without new pins) are counted, since a first page that fell back costs
 * about what a materialized-only read does. Everything seeded is removed at the end (pool entries,
 * feed items, canonical rows and their cache keys, the views' last-read keys); the feed state rows
 * stay.
 */
public final class FeedReadLoadHarness {

    private FeedReadLoadHarness() {}

    public static void main(String[] args) throws Exception {
        int users = intArg(args, "--users", 2000);
        int clients = intArg(args, "--clients", 200);
        int seconds = intArg(args, "--duration-s", 20);
        int warmup = intArg(args, "--warmup-s", 5);
        int feedItems = intArg(args, "--feed-items", 100);
        int poolEntries = intArg(args, "--pool-entries", 100);
        int limit = intArg(args, "--limit", 25);
        int catalogSize = intArg(args, "--catalog-pins", 5000);
        int roundS = intArg(args, "--round-s", 10);
        int seedThreads = intArg(args, "--seed-threads", 4);
        // Fixed open-loop rates (requests/s) make runs comparable; 0: half the rate the closed loop reached.
        int pacedRate = intArg(args, "--paced-rps", 0);
        int pacedGenerationRate = intArg(args, "--paced-generation-rps", 0);
        int pacedRounds = intArg(args, "--paced-rounds", 1);
        if (pacedRounds < 1) throw new IllegalArgumentException("--paced-rounds must be at least 1");
        // The seeding, the closed loops and the refills leave HBase flushing and the standby replicating for seconds after them.
        double settleCores = CpuMeter.settleCores(args);
        // The readers' JVM and the service's: the paced paths compile for 10+ s after the closed loops (0: no JIT warm-up).
        int jitWarmupS = intArg(args, "--jit-warmup-max-s", 60);
        if (jitWarmupS < 0) throw new IllegalArgumentException("--jit-warmup-max-s must be at least 0: " + jitWarmupS);
        // Quiet: the JIT (the readers' and the service's) compiled for at most this share of a stretch, in tenths of a per cent. At 2 %
        // the service in its own JVM still spent twice the CPU per page of a later round (it had compiled 40-60 ms in it).
        int jitQuietPermille = intArg(args, "--jit-quiet-permille", 5);
        if (jitQuietPermille < 0) throw new IllegalArgumentException("--jit-quiet-permille must be at least 0: " + jitQuietPermille);
        JitQuietRule jit = new JitQuietRule(jitWarmupS, jitQuietPermille / 1000.0);
        // A feed-service running in its own JVM (./pinfeed start feed-service), as deployed; empty: one in this JVM, as its main assembles it.
        String serviceUrl = stringArg(args, "--service-url", "");
        // Its readers sign their own tokens: with the dev stack's issuer key for a feed-service of its own JVM.
        Path readerKeys = Path.of(stringArg(args, "--reader-keys", ".pinfeed/run/reader-keys.private.json"));
        String readerIssuer = stringArg(args, "--reader-issuer", "pinfeed-dev");
        if (feedItems < 2 * limit) throw new IllegalArgumentException("--feed-items must be at least 2 x --limit (the cursor reads the second page)");
        PinfeedConfig config = StackConfig.load();
        String loadBefore = CpuMeter.loadAverage();
        AtomicLong next = new AtomicLong(BenchSeed.freshLocalBase());
        IntFunction<Long> userId = i -> {
            long local = next.getAndIncrement();
            return ShardedId.compose((int) (local % 4096), ObjectType.USER, local);
        };

        // The first pages' last-read records (RedisLastReadStore), deleted at the end like the cache keys.
        String lastReadPrefix = "bench:feed-read:";
        ShardDataSources sources = ShardDataSources.from(config, "bench-feed-read", 16);
        ShardedDb db = new ShardedDb(sources);
        Map<String, RedisClient> redis = RedisCanonicalCache.clients(config, Duration.ofMillis(250), 32);
        RedisShardMap shards = RedisShards.defaultShardMap(config);
        BenchSeed seed = new BenchSeed(db);
        PrometheusMeterRegistry metrics = Meters.newRegistry();
        FeedMetrics feedMetrics = new FeedMetrics(metrics);
        long[] userIds = new long[users];
        List<Long> cacheIds = new ArrayList<>();
        List<String> table = new ArrayList<>();
        Catalog catalog = null;
        try (SpeculativeHBaseStores hbase = SpeculativeHBaseStores.connect(config, metrics);
             // The raw baseline scans the materialized feed where it lives (its stage's home cluster, HBaseLayout).
             Connection primary = HBaseClusters.connect(config, HBaseLayout.from(config).home(HBaseStage.MATERIALIZED));
             RedisGraphStore graph = RedisGraphStore.connect(config, () -> shards, "bench:feed-read-unused:");
             RedisLastReadStore lastReads = RedisLastReadStore.connect(RedisMasterConfig.fixed(config), () -> shards,
                     lastReadPrefix, Duration.ofMillis(500));
             HomeFeedThreads threads = HomeFeedThreads.from(config)) {
            PoolStore pools = hbase.pools();
            MaterializedFeedStore feeds = hbase.materializedFeed();
            HomeFeedSettings settings = HomeFeedSettings.from(config);
            try {
                // Seed: canonical users and catalog pins, then each user's materialized feed and pools.
                long t0 = System.nanoTime();
                catalog = Catalog.seed(seed, next, catalogSize, 50, users);
                for (int i = 0; i < users; i++) {
                    userIds[i] = userId.apply(i);
                    seed.user(userIds[i], 1_767_225_600_000L);
                    if (i % 1000 == 999) seed.flush();
                }
                seed.flush();
                for (long u : userIds) cacheIds.add(u);
                for (long p : catalog.pins) cacheIds.add(p);
                cacheIds.addAll(catalog.boardsAndAuthors());
                log("seeded %d users, %d pins in MySQL in %.1f s", users, catalogSize, (System.nanoTime() - t0) / 1e9);
                t0 = System.nanoTime();
                int chunks = feedItems / limit;
                long seedMillis = System.currentTimeMillis() - 3_600_000L; // an hour ago: new chunks go ahead of these
                Catalog c = catalog;
                parallel(seedThreads, users, i -> {
                    long u = userIds[i];
                    for (int k = 0; k < chunks; k++) {
                        List<FeedItem> items = new ArrayList<>(limit);
                        for (int j = 0; j < limit; j++) items.add(FeedItem.of(c.entry(u, i, 0.5)));
                        feeds.materialize(new Chunk(u, (seedMillis << 16) | k, items));
                    }
                });
                log("materialized %d items per user in %.1f s", chunks * limit, (System.nanoTime() - t0) / 1e9);
                t0 = System.nanoTime();
                parallel(seedThreads, users, i -> pools.upsert(c.entries(userIds[i], i, poolEntries)));
                log("filled pools with %d entries per user in %.1f s", poolEntries, (System.nanoTime() - t0) / 1e9);
                // The second page: right after the newest seeded chunk, as the first page's cursor would say.
                String cursor = FeedCursor.of(new FeedPosition((seedMillis << 16) | (chunks - 1), limit - 1));
                FeedPosition after = new FeedPosition((seedMillis << 16) | (chunks - 1), limit - 1);

                CanonicalReads reads = FeedServiceServer.canonicalReads(config, db,
                        new RedisCanonicalCache(redis, () -> shards, Duration.ofMinutes(10)), feedMetrics);
                HomeFeed homeFeed = FeedServiceServer.homeFeed(config, settings, pools, feeds, lastReads, reads, graph, threads, feedMetrics, Clock.systemUTC());
                // Untimed: the catalog's pins into the cache, so hydration reads what a warm service reads (cache hits).
                t0 = System.nanoTime();
                for (int from = 0; from < catalog.pins.length; from += 500) {
                    List<Long> batch = new ArrayList<>();
                    for (int p = from; p < Math.min(catalog.pins.length, from + 500); p++) batch.add(catalog.pins[p]);
                    if (reads.livePins(batch).size() != batch.size()) throw new IllegalStateException("seeded pins are not all readable");
                }
                log("pin cache warmed in %.1f s", (System.nanoTime() - t0) / 1e9);
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                ReaderAuth.SelfIssued selfIssued = ReaderAuth.selfIssued(config.withOverrides(Map.of("feed.auth.rate-per-second", "1000000000",
                        "feed.auth.rate-burst", "1000000000")), Clock.systemUTC());
                JwtIssuer issuer = serviceUrl.isEmpty() ? selfIssued.issuer()
                        : new JwtIssuer(Files.readString(readerKeys), readerIssuer, ReaderClaims.AUDIENCE, Clock.systemUTC());
                String[] tokens = new String[users];
                for (int i = 0; i < users; i++) tokens[i] = ReaderClaims.userToken(issuer, userIds[i], Duration.ofHours(6));
                try (RunningHttpApp inThisJvm = serviceUrl.isEmpty()
                        ? FeedServiceServer.app(config, selfIssued.auth(), graph, reads, homeFeed, metrics, Map.of()).start("127.0.0.1", 0) : null) {
                    FeedService service = inThisJvm != null ? FeedService.inThisJvm(inThisJvm.baseUri().toString(), metrics, threads)
                            : FeedService.ownJvm(serviceUrl, "http://" + config.hostPort("feed-service.admin.http"), http);
                    log("readers call %s", service);
                    String base = service.baseUri + "/v1/users/";
                    long warm = warmup * 1_000_000_000L;
                    long measure = seconds * 1_000_000_000L;

                    java.util.function.Function<java.util.SplittableRandom, IngestHttp.Result> rawScan = r -> ok(() -> {
                        long u = userIds[r.nextInt(users)];
                        try (Table t = primary.getTable(HBaseClusters.MATERIALIZED_FEED);
                             ResultScanner rs = t.getScanner(MaterializedKeys.pageScan(u, after, limit))) {
                            int n = 0;
                            for (Result ignored : rs) n++;
                            if (n < limit) throw new IllegalStateException("only " + n + " rows for user " + u);
                        }
                    });
                    table.add(row("raw: HBase scan of the page's rows (" + (limit + 1) + " item rows after the cursor)",
                            LoadLoops.closedLoop(clients, warm, measure, 1, rawScan), ""));
                    java.util.function.Function<java.util.SplittableRandom, IngestHttp.Result> inProcess = r -> ok(() -> {
                        HomeFeed.Page page = homeFeed.read(userIds[r.nextInt(users)], cursor, limit);
                        if (page.items().size() < limit) throw new IllegalStateException("only " + page.items().size() + " items");
                    });
                    java.util.function.Function<java.util.SplittableRandom, IngestHttp.Result> secondPage = r -> ok(() -> {
                        int i = r.nextInt(users);
                        items(get(http, base + userIds[i] + "/feed?limit=" + limit + "&cursor=" + cursor, tokens[i]));
                    });
                    LoadLoops.Outcome materializedPeak = LoadLoops.closedLoop(clients, warm, measure, 2, secondPage);
                    table.add(row("materialized only: GET /v1/users/{id}/feed?limit=" + limit + "&cursor=… (second page)", materializedPeak, ""));
                    // The same readers paced (a fixed rate, or half the rate they reached): latency without the queue a saturated
                    // box builds. Each round paces, at that rate, the bare scan (the floor: no service), the service's read in
                    // process (no HTTP, no JSON) and the HTTP read, one after the other; the box drifts between rounds, so each
                    // round's HTTP p99 is divided by its own raw p99 and the median of those ratios is the figure.
                    double paced = pacedRate > 0 ? pacedRate : rate(materializedPeak) / 2;
                    String due = String.format(Locale.ROOT, "%.0f requests/s due; latency from each request's due time", paced);
                    List<Double> ratios = new ArrayList<>();
                    for (int round = 1; round <= pacedRounds; round++) {
                        String of = pacedRounds == 1 ? "" : " (round " + round + ")";
                        warmJit(service, jit, clients, paced, rawScan, "paced round " + round + ", raw");
                        settle(settleCores, "paced round " + round + ", raw");
                        LoadLoops.Outcome raw = LoadLoops.openLoop(clients, paced, warm, measure, 90 + round, rawScan);
                        table.add(row("raw: the same scan, " + clients + " readers paced at the materialized rate (open loop)" + of, raw, due));
                        warmJit(service, jit, clients, paced, inProcess, "paced round " + round + ", in process");
                        settle(settleCores, "paced round " + round + ", in process");
                        table.add(row("in process: HomeFeed.read of the second page, " + clients + " callers paced at that rate (open loop)" + of,
                                LoadLoops.openLoop(clients, paced, warm, measure, 70 + round, inProcess), due));
                        // Before the warm-up: the first look through HBase's Admin API compiled for seconds, in a measured round when it came after.
                        log("before paced round %d, HTTP: %s", round, storeFiles(primary));
                        warmJit(service, jit, clients, paced, secondPage, "paced round " + round + ", HTTP");
                        settle(settleCores, "paced round " + round + ", HTTP");
                        ServerSide before = ServerSide.of(service.metrics());
                        LoadLoops.Outcome served = LoadLoops.openLoop(clients, paced, warm, measure, 50 + round, secondPage);
                        table.add(row("materialized only, " + clients + " readers paced at " + (pacedRate > 0 ? "a fixed rate" : "half that rate")
                                + " (open loop)" + of, served, due + "; " + ServerSide.of(service.metrics()).since(before)));
                        ratios.add(served.latencyMicros().getValueAtPercentile(99) / (double) Math.max(1, raw.latencyMicros().getValueAtPercentile(99)));
                    }
                    if (pacedRounds > 1) {
                        List<Double> sorted = ratios.stream().sorted().toList();
                        String line = String.format(Locale.ROOT, "| materialized only, paced: p99 / the same round's raw p99, median of %d rounds "
                                + "(min %.2f, max %.2f) | | | **%.2f×** | | | | | |", sorted.size(), sorted.get(0), sorted.get(sorted.size() - 1),
                                sorted.get(sorted.size() / 2));
                        log("%s", line);
                        table.add(line);
                    }

                    Fallbacks closedBefore = service.fallbacks();
                    AtomicLong turn = new AtomicLong();
                    AtomicIntegerArray readsOf = new AtomicIntegerArray(users);
                    List<LoadLoops.Outcome> rounds = new ArrayList<>();
                    long round = Math.min(measure, roundS * 1_000_000_000L);
                    for (long done = 0; done < measure; done += round) {
                        rounds.add(LoadLoops.closedLoop(clients, rounds.isEmpty() ? warm : 0, Math.min(round, measure - done), 4 + rounds.size(),
                                r -> ok(() -> {
                                    int i = (int) (turn.getAndIncrement() % users);
                                    readsOf.incrementAndGet(i);
                                    items(get(http, base + userIds[i] + "/feed?limit=" + limit, tokens[i]));
                                })));
                        long r0 = System.nanoTime();
                        if (!service.drain(120_000)) log("after-answer work did not drain in 120 s");
                        int refilled = refill(pools, catalog, userIds, readsOf, poolEntries, seedThreads);
                        log("round %d: %,d requests; drained and refilled %d pools in %.1f s", rounds.size(), rounds.get(rounds.size() - 1).requests(),
                                refilled, (System.nanoTime() - r0) / 1e9);
                    }
                    Fallbacks closed = service.fallbacks().since(closedBefore);
                    long fallbacks = closed.late();
                    long errors = closed.failed();
                    LoadLoops.Outcome generated = merge(rounds);
                    // Fallbacks are counted over every first page, the warm-up's included: the same denominator.
                    table.add(row("with generation: GET /v1/users/{id}/feed?limit=" + limit + " (first page)", generated, String.format(Locale.ROOT,
                            "%d rounds; generator fallbacks (page served without new pins): %d late, %d failed = %.1f %% of %d first pages incl. warm-up",
                            rounds.size(), fallbacks, errors, 100.0 * (fallbacks + errors) / Math.max(1, turn.get()), turn.get()),
                            rounds.toArray(LoadLoops.Outcome[]::new)));
                    // Paced at a fixed rate (or half the rate reached), in rounds like the materialized reads: each first warms its own
                    // load until the JIT is quiet, then tops the pools up again; a round is short enough that no user is read twice in it.
                    double generatedHalf = pacedGenerationRate > 0 ? pacedGenerationRate : rate(generated) / 2;
                    long halfRound = Math.min(round, (long) (users / Math.max(1, generatedHalf) * 1e9 * 0.8));
                    java.util.function.Function<java.util.SplittableRandom, IngestHttp.Result> firstPage = r -> ok(() -> {
                        int i = (int) (turn.getAndIncrement() % users);
                        readsOf.incrementAndGet(i);
                        items(get(http, base + userIds[i] + "/feed?limit=" + limit, tokens[i]));
                    });
                    String dueFirst = String.format(Locale.ROOT, "%.0f requests/s due for %.0f s", generatedHalf, halfRound / 1e9);
                    List<LoadLoops.Outcome> generationRounds = new ArrayList<>();
                    long pacedPages = 0;
                    long halfFallbacks = 0;
                    for (int g = 1; g <= pacedRounds; g++) {
                        String of = pacedRounds == 1 ? "" : " (round " + g + ")";
                        warmJit(service, jit, clients, generatedHalf, firstPage, "paced generation round " + g);
                        if (!service.drain(120_000)) log("after-answer work did not drain in 120 s");
                        refill(pools, catalog, userIds, readsOf, poolEntries, seedThreads);
                        settle(settleCores, "paced generation round " + g);
                        Fallbacks fallbacksBefore = service.fallbacks();
                        long turnBefore = turn.get();
                        ServerSide before = ServerSide.of(service.metrics());
                        LoadLoops.Outcome firstPages = LoadLoops.openLoop(clients, generatedHalf, 0, halfRound, 30 + g, firstPage);
                        ServerSide done = ServerSide.of(service.metrics());
                        long roundFallbacks = service.fallbacks().since(fallbacksBefore).total();
                        halfFallbacks += roundFallbacks;
                        pacedPages += turn.get() - turnBefore;
                        generationRounds.add(firstPages);
                        table.add(row("with generation, " + clients + " readers paced at " + (pacedGenerationRate > 0 ? "a fixed rate" : "half that rate")
                                + " (open loop)" + of, firstPages, String.format(Locale.ROOT, "%s; generator fallbacks %d of %d first pages; %s", dueFirst,
                                roundFallbacks, turn.get() - turnBefore, done.since(before))));
                        if (!service.drain(120_000)) log("after-answer work did not drain in 120 s");
                    }
                    if (pacedRounds > 1) {
                        table.add(row("with generation, paced, all " + pacedRounds + " rounds", merge(generationRounds),
                                String.format(Locale.ROOT, "%s each; generator fallbacks %d of %d first pages", dueFirst, halfFallbacks, pacedPages),
                                generationRounds.toArray(LoadLoops.Outcome[]::new)));
                    }
                    double dropped = service.metrics().sum("feed_hydration_dropped_total", Map.of());
                    if (dropped > 0) log("hydration left out %.0f items (pins not found): the seed is wrong", dropped);
                }
            } finally {
                log("removing the run's pool entries, feed items and canonical rows");
                if (catalog != null) {
                    Set<Long> catalogPins = new HashSet<>();
                    for (long p : catalog.pins) catalogPins.add(p);
                    parallel(seedThreads, users, i -> {
                        if (userIds[i] == 0) return;
                        pools.remove(userIds[i], catalogPins);
                        feeds.removePins(userIds[i], catalogPins);
                    });
                }
                long deleted = BenchSeed.evictCached(redis, shards, cacheIds);
                long lastReadKeys = 0;
                for (RedisClient c : redis.values()) lastReadKeys += GraphLoadHarness.deletePrefix(c, lastReadPrefix);
                if (!serviceUrl.isEmpty()) {
                    // The service in its own JVM keeps its users' last reads under the graph's prefix: the seeded users' are removed one by one.
                    LastReadKeys serviceKeys = new LastReadKeys(RedisShards.keyPrefix(config));
                    for (long u : userIds) {
                        if (u != 0) lastReadKeys += redis.get(shards.instanceOf(VirtualShards.of(u))).del(serviceKeys.lastRead(u));
                    }
                }
                seed.remove();
                log("cleanup: deleted %d cache keys, %d last-read keys and the seeded rows", deleted, lastReadKeys);
            }
        } finally {
            redis.values().forEach(RedisClient::close);
            db.close();
            sources.close();
        }
        System.out.printf(Locale.ROOT, "%d users, %d closed-loop clients, limit %d, %d s warm-up + %d s measured per phase; %d cores; HBase: %s; "
                        + "load average before %s, after %s%n%n", users, clients, limit, warmup, seconds, Runtime.getRuntime().availableProcessors(),
                HBaseLayout.from(config), loadBefore, CpuMeter.loadAverage());
        System.out.println("| phase | requests/s | p50 ms | p99 ms | p99.9 ms | max ms | failures | CPU cores: JVM / stack / other | note |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---|");
        table.forEach(System.out::println);
    }

    /**
     * The pins users see: {@code size} pins on a few authors' boards (a board per author, the pin on the
     * board's shard). Each user takes them in his own order, so his feed and pools never repeat a pin
     * until he has used up the catalog.
     */
    private static final class Catalog {
        final long[] pins;
        final long[] boards;
        final long[] authors;
        final int[] boardOf;
        /** Pins each user has taken so far, by user index. */
        final AtomicIntegerArray taken;

        private Catalog(long[] pins, long[] boards, long[] authors, int[] boardOf, int users) {
            this.pins = pins;
            this.boards = boards;
            this.authors = authors;
            this.boardOf = boardOf;
            this.taken = new AtomicIntegerArray(users);
        }

        static Catalog seed(BenchSeed seed, AtomicLong next, int size, int authorCount, int users) {
            long[] authors = new long[authorCount];
            long[] boards = new long[authorCount];
            for (int a = 0; a < authorCount; a++) {
                long local = next.getAndIncrement();
                authors[a] = ShardedId.compose((int) (local % 4096), ObjectType.USER, local);
                boards[a] = ShardedId.compose((int) (local % 4096), ObjectType.BOARD, next.getAndIncrement());
                seed.user(authors[a], 1_767_225_600_000L);
                seed.board(boards[a], authors[a], 1_767_225_600_000L);
            }
            long[] pins = new long[size];
            int[] boardOf = new int[size];
            for (int p = 0; p < size; p++) {
                boardOf[p] = p % authorCount;
                pins[p] = ShardedId.compose(ShardedId.decode(boards[boardOf[p]]).shard(), ObjectType.PIN, next.getAndIncrement());
                seed.pin(pins[p], boards[boardOf[p]], authors[boardOf[p]], 1_767_225_600_000L + p);
                if (p % 1000 == 999) seed.flush();
            }
            seed.flush();
            return new Catalog(pins, boards, authors, boardOf, users);
        }

        List<Long> boardsAndAuthors() {
            List<Long> out = new ArrayList<>();
            for (long b : boards) out.add(b);
            for (long a : authors) out.add(a);
            return out;
        }

        /** The next pin of user {@code index}'s order as a pool entry, both sources alternating. */
        PoolEntry entry(long user, int index, double score) {
            int k = taken.getAndIncrement(index);
            int p = (int) ((index * 7919L + k) % pins.length);
            Source source = k % 2 == 0 ? Source.FOLLOWED_USER : Source.FOLLOWED_BOARD;
            return new PoolEntry(user, source, score, pins[p], authors[boardOf[p]], boards[boardOf[p]], 1_767_225_600_000L + p);
        }

        /** {@code n} next entries of the user, scores spread over (0.1, 1). */
        List<PoolEntry> entries(long user, int index, int n) {
            SplittableRandom random = new SplittableRandom(user ^ taken.get(index));
            List<PoolEntry> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) out.add(entry(user, index, 0.1 + 0.9 * random.nextDouble()));
            return out;
        }
    }

    /** Tops up the pools of every user read since the last refill to {@code size} entries; returns how many users. */
    private static int refill(PoolStore pools, Catalog catalog, long[] userIds, AtomicIntegerArray readsOf, int size, int threads) throws Exception {
        List<Integer> read = new ArrayList<>();
        for (int i = 0; i < userIds.length; i++) if (readsOf.getAndSet(i, 0) > 0) read.add(i);
        parallel(threads, read.size(), j -> {
            int i = read.get(j);
            int missing = size - pools.all(userIds[i]).size();
            if (missing > 0) pools.upsert(catalog.entries(userIds[i], i, missing));
        });
        return read.size();
    }

    /** Fails unless the answer holds at least one item (a page of nothing would measure nothing). */
    private static void items(String body) {
        if (!body.startsWith("{\"items\":[{")) throw new IllegalStateException("no items: " + body.substring(0, Math.min(200, body.length())));
    }

    @FunctionalInterface
    private interface IndexTask {
        void run(int i) throws Exception;
    }

    /** Runs {@code task} for 0..n-1 on {@code threads} threads; the first failure fails the whole. */
    private static void parallel(int threads, int n, IndexTask task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t;
                done.add(pool.submit(() -> {
                    for (int i = first; i < n; i += threads) task.run(i);
                    return null;
                }));
            }
            for (Future<?> f : done) f.get();
        } finally {
            pool.shutdown();
        }
    }

    /** The rounds as one outcome: requests, failures and time summed, histograms merged (CPU: see {@link #row}). */
    private static LoadLoops.Outcome merge(List<LoadLoops.Outcome> rounds) {
        Histogram all = new Histogram(3);
        long requests = 0;
        long accepted = 0;
        long failures = 0;
        long nanos = 0;
        for (LoadLoops.Outcome o : rounds) {
            all.add(o.latencyMicros());
            requests += o.requests();
            accepted += o.acceptedEvents();
            failures += o.failures();
            nanos += o.measuredNanos();
        }
        return new LoadLoops.Outcome(requests, accepted, failures, nanos, all, 0, 0, 0, null, null);
    }

    /** A table row; CPU over the measured window (for merged rounds: the mean of the rounds', so the untimed refills stay out). */
    private static double rate(LoadLoops.Outcome o) {
        return o.requests() * 1e9 / o.measuredNanos();
    }

    private static String row(String name, LoadLoops.Outcome o, String note, LoadLoops.Outcome... rounds) {
        double jvm = 0;
        double stack = 0;
        double other = 0;
        List<LoadLoops.Outcome> parts = rounds.length == 0 ? List.of(o) : List.of(rounds);
        for (LoadLoops.Outcome part : parts) {
            CpuMeter.Split cpu = CpuMeter.between(part.cpuFrom(), part.cpuTo());
            jvm += cpu.jvm() / parts.size();
            stack += cpu.stack() / parts.size();
            other += cpu.other() / parts.size();
        }
        Histogram h = o.latencyMicros();
        String line = String.format(Locale.ROOT, "| %s | %,.0f | %s | %s | %s | %s | %d | %s / %s / %s | %s |", name, o.requests() * 1e9 / o.measuredNanos(),
                Report.ms(h.getValueAtPercentile(50) / 1000.0), Report.ms(h.getValueAtPercentile(99) / 1000.0),
                Report.ms(h.getValueAtPercentile(99.9) / 1000.0), Report.ms(h.getMaxValue() / 1000.0), o.failures(),
                Report.fmt1(jvm), Report.fmt1(stack), Report.fmt1(other), note);
        log("%s", line);
        return line;
    }

    /**
     * The service's own timing of the feed route ({@code http_request_duration}: receipt to the answer
     * handed to the server, its SLO buckets), so a phase's client-side latency can be split into what
     * the service took and what HTTP, the clients and the JVM they share added. Counts include warm-up.
     */
    private record ServerSide(List<PrometheusText.Bucket> buckets, long wallNanos, double cpuNanos, double jitMillis, double gcPauses,
                              double gcPauseSeconds) {
        static ServerSide of(PrometheusText metrics) {
            return new ServerSide(metrics.buckets("http_request_duration_seconds", Map.of("route", "/v1/users/{userId}/feed")), System.nanoTime(),
                    metrics.sum("process_cpu_time_ns_total", Map.of()), metrics.sum("jvm_compilation_time_ms_total", Map.of()),
                    metrics.sum("jvm_gc_pause_seconds_count", Map.of()), metrics.sum("jvm_gc_pause_seconds_sum", Map.of()));
        }

        /** "server side: x % within 5 ms, p99 within (a, b] ms; its JVM: cores, JIT ms, GC pauses" since {@code earlier} (warm-up included). */
        String since(ServerSide earlier) {
            if (buckets.isEmpty() || buckets.size() != earlier.buckets.size()) return "server side: no requests timed";
            double n = buckets.get(buckets.size() - 1).count() - earlier.buckets.get(buckets.size() - 1).count();
            if (n <= 0) return "server side: no requests timed";
            double within5 = Double.NaN;
            double p99Low = 0;
            double p99High = Double.POSITIVE_INFINITY;
            double previousBound = 0;
            for (int i = 0; i < buckets.size(); i++) {
                double bound = buckets.get(i).le() * 1000;
                double share = (buckets.get(i).count() - earlier.buckets.get(i).count()) / n; // cumulative: at or below the bound
                if (Math.abs(bound - 5.0) < 1e-6) within5 = share;
                if (share >= 0.99 && p99High == Double.POSITIVE_INFINITY) {
                    p99High = bound;
                    p99Low = previousBound;
                }
                previousBound = bound;
            }
            return String.format(Locale.ROOT, "server side: %.1f %% within 5 ms, p99 within (%s, %s] ms; its JVM: %.2f cores, JIT %.0f ms, "
                    + "GC %.0f pauses, %.0f ms", 100 * within5, Report.ms(p99Low), p99High == Double.POSITIVE_INFINITY ? "∞" : Report.ms(p99High),
                    (cpuNanos - earlier.cpuNanos) / (wallNanos - earlier.wallNanos), jitMillis - earlier.jitMillis, gcPauses - earlier.gcPauses,
                    (gcPauseSeconds - earlier.gcPauseSeconds) * 1000);
        }
    }

    /**
     * The feed-service the readers call: in this JVM, as its main assembles it, or running in its own
     * ({@code --service-url}), as deployed, where its GC and JIT are not the readers'. Either way the
     * harness reads it through its /metrics page: fallbacks, the route's timing, its JIT.
     */
    private static final class FeedService {
        final String baseUri;
        private final Supplier<String> metricsPage;
        /** In this JVM: its post-answer threads, drained directly; null when the service runs in its own JVM. */
        private final HomeFeedThreads threads;

        private FeedService(String baseUri, Supplier<String> metricsPage, HomeFeedThreads threads) {
            this.baseUri = baseUri;
            this.metricsPage = metricsPage;
            this.threads = threads;
        }

        static FeedService inThisJvm(String baseUri, PrometheusMeterRegistry metrics, HomeFeedThreads threads) {
            return new FeedService(baseUri, metrics::scrape, threads);
        }

        /** A running feed-service, which must answer ready; its /metrics are on its admin address. */
        static FeedService ownJvm(String url, String adminUrl, HttpClient http) {
            String base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
            try {
                get(http, base + "/health/ready");
            } catch (Exception e) {
                throw new IllegalStateException("--service-url " + url + ": no ready feed-service there (./pinfeed start feed-service): " + e.getMessage(), e);
            }
            return new FeedService(base, () -> {
                try {
                    return get(http, adminUrl + "/metrics");
                } catch (Exception e) {
                    throw new IllegalStateException("reading " + adminUrl + "/metrics: " + e.getMessage(), e);
                }
            }, null);
        }

        PrometheusText metrics() {
            return PrometheusText.parse(metricsPage.get());
        }

        /** The generator's fallbacks so far, both reasons from one read of the page. */
        Fallbacks fallbacks() {
            PrometheusText m = metrics();
            return new Fallbacks((long) m.sum("feed_generator_fallbacks_total", Map.of("reason", "deadline")),
                    (long) m.sum("feed_generator_fallbacks_total", Map.of("reason", "error")));
        }

        /**
         * The JIT's compile time, ms: the service's (its /metrics), plus this JVM's (the readers') when the service runs in its own.
         * Read through the page in both cases, so the warm-up also warms the scrape each round takes (cold, it compiled for 2 s).
         */
        long compileMillis() {
            return (long) metrics().sum("jvm_compilation_time_ms_total", Map.of()) + (threads != null ? 0 : LoadLoops.jitMillis());
        }

        /** Waits until the post-answer work (chunk saves, pool removals) has caught up; false on timeout. */
        boolean drain(long timeoutMillis) throws InterruptedException {
            if (threads != null) return threads.drain(timeoutMillis);
            // In its own JVM: until its after-answer pool reads idle twice in a row (a task may be handed over just after its answer).
            long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
            int idle = 0;
            while (System.nanoTime() < deadline) {
                PrometheusText m = metrics();
                Map<String, String> pool = Map.of("name", "feed-after-answer");
                idle = m.sum("executor_queued_tasks", pool) + m.sum("executor_active_threads", pool) == 0 ? idle + 1 : 0;
                if (idle == 2) return true;
                Thread.sleep(100);
            }
            return false;
        }

        @Override
        public String toString() {
            return "feed-service at " + baseUri + (threads != null ? " in this JVM" : " in its own JVM");
        }
    }

    /**
     * Before a paced phase: its own load, untimed, in 2 s stretches until the JIT (this JVM's, and the
     * service's in its own) compiled for at most {@code jit.quietShare()} of one, and says how long that took.
     */
    private static void warmJit(FeedService service, JitQuietRule jit, int clients, double rate,
                                java.util.function.Function<java.util.SplittableRandom, IngestHttp.Result> op, String phase) throws Exception {
        if (jit.maxS() == 0) return;
        long stretch = 2_000_000_000L;
        LoadLoops.JitWarmup w = LoadLoops.warmUntilJitQuiet(service::compileMillis, Math.max(1, jit.maxS() / 2), jit.quietShare(), () -> {
            LoadLoops.openLoop(clients, rate, 0, stretch, 7, op);
            return stretch;
        });
        log("before %s: %s", phase, w.describe("2 s stretches"));
    }

    /** The feed table's regions on the primary: store files, memstore, compaction (a page reads every store file of its region). */
    private static String storeFiles(Connection primary) {
        try (Admin admin = primary.getAdmin()) {
            int regions = 0;
            int files = 0;
            long memstoreBytes = 0;
            for (ServerName server : admin.getRegionServers()) {
                for (RegionMetrics r : admin.getRegionMetrics(server, HBaseClusters.MATERIALIZED_FEED)) {
                    regions++;
                    files += r.getStoreFileCount();
                    memstoreBytes += (long) r.getMemStoreSize().get(Size.Unit.BYTE);
                }
            }
            return String.format(Locale.ROOT, "%s on the primary: %d regions, %d store files, memstore %.1f MB, compaction %s",
                    HBaseClusters.MATERIALIZED_FEED, regions, files, memstoreBytes / 1e6, admin.getCompactionState(HBaseClusters.MATERIALIZED_FEED));
        } catch (IOException e) {
            return "region metrics unavailable: " + e.getMessage();
        }
    }

    /** At most {@code maxS} seconds of untimed load before a paced phase, until the JIT compiled for at most {@code quietShare} of a stretch. */
    private record JitQuietRule(int maxS, double quietShare) {}

    /** The generator's fallbacks: late (past its deadline) and failed. */
    private record Fallbacks(long late, long failed) {
        Fallbacks since(Fallbacks earlier) {
            return new Fallbacks(late - earlier.late, failed - earlier.failed);
        }

        long total() {
            return late + failed;
        }
    }

    /** Waits for a quiet stack before a paced phase ({@link CpuMeter#settle}) and says how long it took. */
    private static void settle(double cores, String phase) throws InterruptedException {
        String how = CpuMeter.settle(cores);
        if (how != null) log("before %s: %s", phase, how);
    }

    private static void log(String format, Object... args) {
        System.err.printf(Locale.ROOT, "[feed-read-bench] " + format + "%n", args);
    }
}
