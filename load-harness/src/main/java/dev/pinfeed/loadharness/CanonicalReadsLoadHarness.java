package dev.pinfeed.loadharness;

import static dev.pinfeed.loadharness.Args.intArg;
import static dev.pinfeed.loadharness.HttpCalls.get;
import static dev.pinfeed.loadharness.HttpCalls.ok;

import dev.pinfeed.canonicalstore.CanonicalCacheKeys;
import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalReads;
import dev.pinfeed.canonicalstore.reads.CachedCanonicalReads;
import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.canonicalstore.redis.RedisCanonicalCache;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedservice.FeedMetrics;
import dev.pinfeed.feedservice.FeedServiceServer;
import dev.pinfeed.feedservice.ReaderAuth;
import dev.pinfeed.followergraph.redis.RedisGraphStore;
import dev.pinfeed.httpkit.Meters;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.http.HttpClient;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The canonical reads benchmark (a tool, not a test), in one run on one box, every phase a closed
 * loop of {@code --clients} threads (default 32):
 * <ol>
 *   <li>raw baselines: the pin's row by primary key over plain JDBC (one connection per thread and
 *       host, {@code SELECT data FROM dbNNNNN.pins WHERE local_id = ?}), and a plain Redis GET of a
 *       cached pin;</li>
 *   <li>GET /v1/pins/{id} through feed-service (in-process, HTTP over loopback) on a cache hit, and on
 *       a miss (each request a pin never read before: MySQL object + like count, then the fill);</li>
 *   <li>GET /v1/boards/{id}/pins?limit=25 (cached list, cached pins).</li>
 * </ol>
 * Rows are seeded under fresh ids and deleted at the end with their cache keys.
 */
public final class CanonicalReadsLoadHarness {

    private CanonicalReadsLoadHarness() {}

    public static void main(String[] args) throws Exception {
        int clients = intArg(args, "--clients", 32);
        int seconds = intArg(args, "--duration-s", 10);
        int warmup = intArg(args, "--warmup-s", 3);
        int missPins = intArg(args, "--miss-pins", 40_000);
        int hitBoards = 20;
        int pinsPerHitBoard = 100;
        PinfeedConfig config = StackConfig.load();
        String loadBefore = CpuMeter.loadAverage();
        long base = BenchSeed.freshLocalBase();
        AtomicInteger next = new AtomicInteger();
        Function<ObjectType, Long> id = type -> ShardedId.compose(next.get() % 4096, type, base + next.getAndIncrement());

        List<String> table = new ArrayList<>();
        try (SeededCanonicalStores stores = SeededCanonicalStores.open(config, 16, 2 * clients)) {
            // Seed: hit boards of 100 pins each, and miss boards holding the pins each read once.
            long t0 = System.nanoTime();
            long[] hitPins = new long[hitBoards * pinsPerHitBoard];
            long[] boards = new long[hitBoards];
            for (int b = 0; b < hitBoards; b++) {
                long owner = id.apply(ObjectType.USER);
                stores.seed.user(owner, 1_767_225_600_000L);
                boards[b] = ShardedId.compose(ShardedId.decode(owner).shard(), ObjectType.BOARD, base + next.getAndIncrement());
                stores.seed.board(boards[b], owner, 1_767_225_600_000L);
                for (int p = 0; p < pinsPerHitBoard; p++) {
                    long pin = ShardedId.compose(ShardedId.decode(owner).shard(), ObjectType.PIN, base + next.getAndIncrement());
                    stores.seed.pin(pin, boards[b], owner, 1_767_225_600_000L + p);
                    hitPins[b * pinsPerHitBoard + p] = pin;
                }
                stores.cacheIds.add(owner);
                stores.cacheIds.add(boards[b]);
            }
            long[] coldPins = new long[missPins];
            long coldOwner = 0;
            long coldBoard = 0;
            for (int i = 0; i < missPins; i++) {
                if (i % 1000 == 0) { // 1000 pins per board, each board on its owner's shard
                    stores.seed.flush();
                    coldOwner = id.apply(ObjectType.USER);
                    stores.seed.user(coldOwner, 1_767_225_600_000L);
                    coldBoard = ShardedId.compose(ShardedId.decode(coldOwner).shard(), ObjectType.BOARD, base + next.getAndIncrement());
                    stores.seed.board(coldBoard, coldOwner, 1_767_225_600_000L);
                }
                coldPins[i] = ShardedId.compose(ShardedId.decode(coldOwner).shard(), ObjectType.PIN, base + next.getAndIncrement());
                stores.seed.pin(coldPins[i], coldBoard, coldOwner, 1_767_225_600_000L + i);
            }
            stores.seed.flush();
            for (long p : hitPins) stores.cacheIds.add(p);
            for (long p : coldPins) stores.cacheIds.add(p);
            System.err.printf(Locale.ROOT, "seeded %d hit pins, %d miss pins in %.1f s%n", hitPins.length, missPins, (System.nanoTime() - t0) / 1e9);

            PrometheusMeterRegistry metrics = Meters.newRegistry();
            FeedMetrics feedMetrics = new FeedMetrics(metrics);
            CanonicalReads reads = new CachedCanonicalReads(new MysqlCanonicalReads(stores.db), new RedisCanonicalCache(stores.redis, () -> stores.shards,
                    Duration.ofMinutes(10)), feedMetrics, CachedCanonicalReads.DEFAULT_LIST_SIZE);
            RedisGraphStore graph = RedisGraphStore.connect(config, () -> stores.shards, "bench:graph-unused:");
            try (RunningHttpApp service = FeedServiceServer.app(config, ReaderAuth.selfIssued(config, Clock.systemUTC()).auth(), graph, reads, metrics, Map.of()).start("127.0.0.1", 0)) {
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                String uri = service.baseUri().toString();
                for (long p : hitPins) get(http, uri + "/v1/pins/" + p); // fills the pin cache
                for (long b : boards) get(http, uri + "/v1/boards/" + b + "/pins?limit=25");

                long warm = warmup * 1_000_000_000L;
                long measure = seconds * 1_000_000_000L;
                Map<Thread, Map<String, Connection>> jdbc = new java.util.concurrent.ConcurrentHashMap<>();
                table.add(row("raw JDBC: SELECT data FROM dbNNNNN.pins WHERE local_id = ? (primary key)", LoadLoops.closedLoop(clients, warm, measure, 1,
                        r -> ok(() -> {
                            ShardedId pin = ShardedId.decode(hitPins[r.nextInt(hitPins.length)]);
                            Connection c = jdbc.computeIfAbsent(Thread.currentThread(), t -> new HashMap<>())
                                    .computeIfAbsent(stores.sources.hostOf(pin.shard()), h -> BenchSeed.rawConnection(config, stores.sources, h));
                            try (PreparedStatement ps = c.prepareStatement("SELECT data FROM " + MysqlShardMap.databaseName(pin.shard())
                                    + ".pins WHERE local_id = ?")) {
                                ps.setLong(1, pin.localId());
                                try (ResultSet rs = ps.executeQuery()) {
                                    if (!rs.next() || rs.getString(1) == null) throw new IllegalStateException("no row for " + pin);
                                }
                            }
                        }))));
                for (Map<String, Connection> cs : jdbc.values()) for (Connection c : cs.values()) c.close();
                table.add(row("raw Redis GET of a cached pin (pooled client)", LoadLoops.closedLoop(clients, warm, measure, 2, r -> ok(() -> {
                    long pin = hitPins[r.nextInt(hitPins.length)];
                    if (stores.redis.get(stores.shards.instanceOf(CanonicalCacheKeys.shardOf(pin))).get(CanonicalCacheKeys.pin(pin)) == null) {
                        throw new IllegalStateException("pin " + pin + " is not cached");
                    }
                }))));
                table.add(row("GET /v1/pins/{id}, cache hit", LoadLoops.closedLoop(clients, warm, measure, 3,
                        r -> ok(() -> get(http, uri + "/v1/pins/" + hitPins[r.nextInt(hitPins.length)])))));
                AtomicInteger cold = new AtomicInteger();
                LoadLoops.Outcome miss = LoadLoops.closedLoop(clients, warm, measure, 4,
                        r -> ok(() -> get(http, uri + "/v1/pins/" + coldPins[cold.getAndIncrement() % coldPins.length])));
                table.add(row("GET /v1/pins/{id}, cache miss (MySQL object + like count, versioned fill)", miss)
                        + (cold.get() > coldPins.length ? " (wrapped: " + cold.get() + " reads of " + coldPins.length + " pins)" : ""));
                table.add(row("GET /v1/boards/{id}/pins?limit=25, cached list and pins", LoadLoops.closedLoop(clients, warm, measure, 5,
                        r -> ok(() -> get(http, uri + "/v1/boards/" + boards[r.nextInt(boards.length)] + "/pins?limit=25")))));
                System.err.printf(Locale.ROOT, "cache lookups: pin hit %d miss %d, board_pins hit %d miss %d, errors %s%n",
                        feedMetrics.lookups("pin", "hit"), feedMetrics.lookups("pin", "miss"), feedMetrics.lookups("board_pins", "hit"),
                        feedMetrics.lookups("board_pins", "miss"), stores.redis.keySet().stream().map(n -> n + "=" + feedMetrics.cacheErrors(n)).toList());
            } finally {
                graph.close();
            }
            System.out.printf(Locale.ROOT, "%d closed-loop clients, %d s warm-up + %d s measured per phase; %d cores; load average before %s, after %s%n%n",
                    clients, warmup, seconds, Runtime.getRuntime().availableProcessors(), loadBefore, CpuMeter.loadAverage());
            Report.printTable("| phase | requests/s | p50 ms | p99 ms | failures |", table);
        }
    }


    private static String row(String name, LoadLoops.Outcome o) {
        return String.format(Locale.ROOT, "| %s | %,.0f | %.3f | %.3f | %d |", name, o.requests() * 1e9 / o.measuredNanos(),
                o.latencyMicros().getValueAtPercentile(50) / 1000.0, o.latencyMicros().getValueAtPercentile(99) / 1000.0, o.failures());
    }
}
