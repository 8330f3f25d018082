package dev.pinfeed.loadharness;

import static dev.pinfeed.loadharness.Args.intArg;

import dev.pinfeed.canonicalstore.CanonicalCacheKeys;
import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalReads;
import dev.pinfeed.canonicalstore.reads.CacheListener;
import dev.pinfeed.canonicalstore.reads.CachedCanonicalReads;
import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.canonicalstore.redis.RedisCanonicalCache;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.feedservice.FeedServiceServer;
import dev.pinfeed.feedservice.ReaderAuth;
import dev.pinfeed.httpkit.ReaderClaims;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.redis.GraphConnections;
import dev.pinfeed.followergraph.sharded.GraphKeys;
import dev.pinfeed.httpkit.Meters;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.VirtualShards;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.apache.curator.framework.CuratorFramework;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The follower-graph benchmark (a tool, not a test), in one run on one box:
 * <ol>
 *   <li>the ratio: raw pipelined writes and {@code RedisGraphStore.applyAll} alternate for {@code --rounds} (3) rounds, after
 *       a warm-up of both, each round on fresh pairs. Raw is the two ZADDs a follow minimally needs (follower's following set,
 *       followee's followers set), pipelined 1000 at a time per Redis instance; applyAll is what the graph processor does
 *       with a poll's records, in batches of {@code --batch} (500) commands on N threads;</li>
 *   <li>follow events applied through {@code RedisGraphStore.apply}, one command at a time, on 1 and on N threads, and
 *       applyAll on 1 thread, against the rounds' median raw rate;</li>
 *   <li>the point query GET /v1/users/{a}/following/users/{b} through feed-service (in-process, HTTP
 *       over loopback): client latency, the service's own request-duration histogram, and the store
 *       call alone.</li>
 * </ol>
 * Everything is written under a fresh key prefix, deleted at the end.
 */
public final class GraphLoadHarness {

    private GraphLoadHarness() {}

    public static void main(String[] args) throws Exception {
        int events = intArg(args, "--events", 100_000);
        int users = intArg(args, "--users", 20_000);
        int threads = intArg(args, "--threads", 4);
        int clients = intArg(args, "--clients", 4);
        int seconds = intArg(args, "--duration-s", 15);
        int batch = intArg(args, "--batch", 500);
        int rounds = intArg(args, "--rounds", 3);
        PinfeedConfig config = StackConfig.load();
        String prefix = "bench:graph:" + Long.toString(System.currentTimeMillis(), 36) + ":";
        SplittableRandom random = new SplittableRandom(42);
        long[] ids = new long[users];
        long base = BenchSeed.freshLocalBase(); // fresh local ids: the users are seeded in MySQL
        for (int i = 0; i < users; i++) ids[i] = ShardedId.compose(i % 4096, ObjectType.USER, base + i);
        long[][] pairs = freshPairs(random, ids, events);
        Map<String, RedisClient> instances = dev.pinfeed.redismasters.RedisMasterClients.open(dev.pinfeed.redismasters.RedisMasterConfig.fixed(config),
                new dev.pinfeed.redismasters.RedisMasterClients.Settings("pinfeed-load-raw", Duration.ofSeconds(2), Duration.ofSeconds(2), 1));
        List<String> table = new ArrayList<>();
        CuratorFramework zk = CuratorClients.start(config);
        try (zk; GraphConnections graph = GraphConnections.open(config, zk, prefix)) {
            GraphStore store = graph.store();
            RedisShardMap shards = graph.shards().get();

            // Warm-up (not reported): both paths JIT-compiled before either is measured.
            rawPipelined(instances, shards, new GraphKeys(prefix + "raw-warm:"), freshPairs(random, ids, 20_000));
            applyBatched(store, freshPairs(random, ids, 20_000), batch, threads, 3_000_000);

            // The ratio: raw and applyAll alternate, each round on fresh pairs (a register that does not change writes less).
            double[] raws = new double[rounds];
            double[] ratios = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                raws[r] = rawPipelined(instances, shards, new GraphKeys(prefix + "raw" + r + ":"), freshPairs(random, ids, events));
                double batched = applyBatched(store, freshPairs(random, ids, events), batch, threads, 4_000_000L + r * (long) events);
                ratios[r] = batched / raws[r];
                System.err.printf(Locale.ROOT, "round %d of %d: raw %.0f, applyAll %.0f follows/s%n", r + 1, rounds, raws[r], batched);
                table.add(row("round " + (r + 1) + ": raw pipelined Redis, 2 ZADD per follow, 1000 per pipeline", raws[r], "follows/s",
                        "1.00", "", ""));
                table.add(row("round " + (r + 1) + ": RedisGraphStore.applyAll, batches of " + batch + ", " + threads + " threads", batched,
                        "follows/s", ratio(batched, raws[r]), "", ""));
            }
            double raw = median(raws);
            table.add(row("median of the rounds' ratios (raw below: the rounds' median)", raw, "follows/s",
                    ratio(median(ratios), 1), "", ""));

            int oneThread = Math.min(events, 20_000);
            double single = apply(store, pairs, 0, oneThread, 1, 1);
            table.add(row("RedisGraphStore.apply, 1 thread (" + oneThread + " follows)", single, "follows/s", ratio(single, raw), "", ""));
            double multi = apply(store, pairs, oneThread, events, threads, 1_000_000);
            table.add(row("RedisGraphStore.apply, " + threads + " threads (" + (events - oneThread) + " follows)", multi, "follows/s",
                    ratio(multi, raw), "", ""));
            RedisCounters before = RedisCounters.of(instances.values());
            double batchedOne = applyBatched(store, freshPairs(random, ids, events / 2), batch, 1, 2_000_000);
            RedisCounters spent = RedisCounters.of(instances.values()).minus(before);
            table.add(row("RedisGraphStore.applyAll, batches of " + batch + ", 1 thread (" + events / 2 + " follows)", batchedOne,
                    "follows/s", ratio(batchedOne, raw), "", ""));
            // What a follow costs Redis, counted in the same phase (both masters; other clients of the stack count too).
            System.out.printf(Locale.ROOT, "applyAll, 1 thread, per follow on the masters: %.2f commands (%s), main threads' CPU %.1f µs%n",
                    (double) spent.total() / (events / 2), spent.perFollow(events / 2), spent.cpuSeconds() * 1e6 / (events / 2));

            Histogram direct = new Histogram(3);
            long deadline = System.nanoTime() + seconds * 1_000_000_000L / 3;
            long calls = 0;
            long t0 = System.nanoTime();
            while (System.nanoTime() < deadline) {
                long[] p = pairs[random.nextInt(events)];
                long s = System.nanoTime();
                store.relation(p[0], p[1]);
                direct.recordValue(Math.max(1, (System.nanoTime() - s) / 1000));
                calls++;
            }
            table.add(row("store.relation() in process, 1 thread", calls * 1e9 / (System.nanoTime() - t0), "queries/s", "",
                    ms(direct.getValueAtPercentile(50)), ms(direct.getValueAtPercentile(99))));

            // The point query 404s users the canonical store does not know: seed them (deleted at the end).
            ShardDataSources mysql = ShardDataSources.from(config, "graph-bench", 8);
            ShardedDb db = new ShardedDb(mysql);
            BenchSeed seed = new BenchSeed(db);
            for (long user : ids) seed.user(user, 1_767_225_600_000L);
            seed.flush();
            Map<String, RedisClient> cacheClients = RedisCanonicalCache.clients(config, Duration.ofMillis(250), 2 * clients);
            CanonicalReads reads = new CachedCanonicalReads(new MysqlCanonicalReads(db), new RedisCanonicalCache(cacheClients, graph.shards(),
                    Duration.ofMinutes(10)), CacheListener.NONE, CachedCanonicalReads.DEFAULT_LIST_SIZE);
            // One service token for every client: the per-token rate limit is not what this measures.
            ReaderAuth.SelfIssued readers = ReaderAuth.selfIssued(config.withOverrides(Map.of("feed.auth.rate-per-second", "1000000000",
                    "feed.auth.rate-burst", "1000000000")), Clock.systemUTC());
            String token = ReaderClaims.serviceToken(readers.issuer(), "bench-graph", Duration.ofHours(2));
            try (RunningHttpApp service = FeedServiceServer.app(config, readers.auth(), store, reads, Meters.newRegistry(), Map.of()).start("127.0.0.1", 0)) {
                Histogram client = new Histogram(3);
                AtomicLong served = new AtomicLong();
                List<Thread> workers = new ArrayList<>();
                long warmEnd = System.nanoTime() + 3_000_000_000L;
                long end = warmEnd + seconds * 1_000_000_000L;
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                for (int c = 0; c < clients; c++) {
                    SplittableRandom r = random.split();
                    Histogram h = new Histogram(3);
                    Thread w = new Thread(() -> {
                        while (System.nanoTime() < end) {
                            long[] p = pairs[r.nextInt(events)];
                            long s = System.nanoTime();
                            try {
                                HttpResponse<String> resp = http.send(HttpRequest.newBuilder(URI.create(service.baseUri()
                                        + "/v1/users/" + p[0] + "/following/users/" + p[1])).header("Authorization", "Bearer " + token)
                                        .GET().build(), HttpResponse.BodyHandlers.ofString());
                                if (resp.statusCode() != 200) throw new IllegalStateException("HTTP " + resp.statusCode() + " " + resp.body());
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                            long done = System.nanoTime();
                            if (s >= warmEnd) {
                                h.recordValue(Math.max(1, (done - s) / 1000));
                                served.incrementAndGet();
                            }
                        }
                        synchronized (client) {
                            client.add(h);
                        }
                    });
                    workers.add(w);
                    w.start();
                }
                for (Thread w : workers) w.join();
                double qps = served.get() / (double) seconds;
                table.add(row("GET following/users/{b} via HTTP, " + clients + " clients (client side)", qps, "requests/s", "",
                        ms(client.getValueAtPercentile(50)), ms(client.getValueAtPercentile(99))));
                String metrics = http.send(HttpRequest.newBuilder(URI.create(service.baseUri() + "/metrics")).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
                double[] inside = serverQuantiles(metrics);
                table.add(row("same, inside feed-service (request-duration histogram, bucket bounds)", qps, "requests/s", "",
                        String.format(Locale.ROOT, "≤ %.2f", inside[0] * 1000), String.format(Locale.ROOT, "≤ %.2f", inside[1] * 1000))
                        + String.format(Locale.ROOT, " %.1f %% of requests ≤ 1 ms", inside[2] * 100));
            } finally {
                for (long user : ids) {
                    cacheClients.get(shards.instanceOf(CanonicalCacheKeys.shardOf(user))).del(CanonicalCacheKeys.user(user));
                }
                cacheClients.values().forEach(RedisClient::close);
                seed.remove();
                db.close();
                mysql.close();
            }
            System.out.println("| phase | rate | unit | ratio to raw | p50 ms | p99 ms |");
            System.out.println("|---|---:|---|---:|---:|---:|");
            table.forEach(System.out::println);
        } finally {
            long deleted = 0;
            for (RedisClient c : instances.values()) deleted += deletePrefix(c, prefix);
            System.out.println("cleanup: deleted " + deleted + " keys under " + prefix);
            instances.values().forEach(RedisClient::close);
        }
    }

    /** {@code n} random (follower, followee) pairs of distinct users. */
    private static long[][] freshPairs(SplittableRandom random, long[] ids, int n) {
        long[][] pairs = new long[n][];
        for (int i = 0; i < n; i++) {
            long a = ids[random.nextInt(ids.length)];
            long b = ids[random.nextInt(ids.length)];
            while (b == a) b = ids[random.nextInt(ids.length)];
            pairs[i] = new long[] {a, b};
        }
        return pairs;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static double rawPipelined(Map<String, RedisClient> instances, RedisShardMap shards, GraphKeys keys, long[][] pairs) {
        Map<String, Pipeline> pipelines = new HashMap<>();
        Map<String, Integer> pending = new HashMap<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < pairs.length; i++) {
            long a = pairs[i][0];
            long b = pairs[i][1];
            zadd(instances, shards, pipelines, pending, keys.followingExplicit(a), VirtualShards.of(a), i, b);
            zadd(instances, shards, pipelines, pending, keys.followersExplicit(b), VirtualShards.of(b), i, a);
        }
        for (Pipeline p : pipelines.values()) p.sync();
        double rate = pairs.length * 1e9 / (System.nanoTime() - t0);
        pipelines.values().forEach(Pipeline::close);
        return rate;
    }

    private static void zadd(Map<String, RedisClient> instances, RedisShardMap shards, Map<String, Pipeline> pipelines,
                             Map<String, Integer> pending, String key, int shard, double score, long member) {
        String instance = shards.instanceOf(shard);
        Pipeline p = pipelines.computeIfAbsent(instance, n -> instances.get(n).pipelined());
        p.zadd(key, score, Long.toString(member));
        int n = pending.merge(instance, 1, Integer::sum);
        if (n % 1000 == 0) p.sync();
    }

    private static double apply(GraphStore store, long[][] pairs, int from, int to, int threads, long eventBase) throws InterruptedException {
        AtomicLong next = new AtomicLong(from);
        List<Thread> workers = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> {
                for (long i = next.getAndIncrement(); i < to; i = next.getAndIncrement()) {
                    long[] p = pairs[(int) i];
                    store.apply(new GraphCommand.FollowUser(eventBase + i + 1, 1_700_000_000_000L + i, p[0], p[1]));
                }
            });
            workers.add(w);
            w.start();
        }
        for (Thread w : workers) w.join();
        return (to - from) * 1e9 / (System.nanoTime() - t0);
    }

    /** Follows applied as the graph processor applies a poll: {@code applyAll} of {@code batch} commands; every one must apply. */
    private static double applyBatched(GraphStore store, long[][] pairs, int batch, int threads, long eventBase)
            throws InterruptedException {
        int to = pairs.length;
        AtomicLong next = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        List<Thread> workers = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            Thread w = new Thread(() -> {
                for (long start = next.getAndAdd(batch); start < to; start = next.getAndAdd(batch)) {
                    List<GraphCommand> commands = new ArrayList<>(batch);
                    for (long i = start; i < Math.min(to, start + batch); i++) {
                        long[] p = pairs[(int) i];
                        commands.add(new GraphCommand.FollowUser(eventBase + i + 1, 1_700_000_000_000L + i, p[0], p[1]));
                    }
                    failed.addAndGet(store.applyAll(commands).stream().filter(o -> !o.isApplied()).count());
                }
            });
            workers.add(w);
            w.start();
        }
        for (Thread w : workers) w.join();
        double rate = to * 1e9 / (System.nanoTime() - t0);
        if (failed.get() > 0) throw new IllegalStateException(failed.get() + " batched follows did not apply");
        return rate;
    }

    /** p50 and p99 upper bucket bounds (seconds) and the fraction ≤ 1 ms, from the route's cumulative histogram. */
    static double[] serverQuantiles(String metrics) {
        List<PrometheusText.Bucket> buckets = PrometheusText.parse(metrics).buckets("http_request_duration_seconds",
                Map.of("route", "/v1/users/{userId}/following/users/{targetUserId}"));
        double total = buckets.isEmpty() ? 0 : buckets.get(buckets.size() - 1).count();
        double p50 = Double.NaN;
        double p99 = Double.NaN;
        double underOneMs = 0;
        for (PrometheusText.Bucket b : buckets) {
            if (Double.isNaN(p50) && b.count() >= 0.5 * total) p50 = b.le();
            if (Double.isNaN(p99) && b.count() >= 0.99 * total) p99 = b.le();
            if (b.le() <= 0.001) underOneMs = b.count() / total;
        }
        return new double[] {p50, p99, underOneMs};
    }

    /** Deletes every key under {@code prefix} on one instance (SCAN + DEL); returns how many. */
    static long deletePrefix(RedisClient client, String prefix) {
        long deleted = 0;
        String cursor = ScanParams.SCAN_POINTER_START;
        ScanParams params = new ScanParams().match(prefix + "*").count(1000);
        do {
            ScanResult<String> page = client.scan(cursor, params);
            if (!page.getResult().isEmpty()) deleted += client.del(page.getResult().toArray(String[]::new));
            cursor = page.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        return deleted;
    }

    /** The masters' command calls by command ({@code INFO commandstats}, scripts' inner commands included) and main-thread CPU seconds. */
    record RedisCounters(Map<String, Long> calls, double cpuSeconds) {

        private static final java.util.regex.Pattern CALLS = java.util.regex.Pattern.compile("^cmdstat_([^:]+):calls=(\\d+)", java.util.regex.Pattern.MULTILINE);
        private static final java.util.regex.Pattern CPU = java.util.regex.Pattern.compile("^used_cpu_(?:sys|user)_main_thread:([0-9.]+)", java.util.regex.Pattern.MULTILINE);

        static RedisCounters of(java.util.Collection<RedisClient> masters) {
            Map<String, Long> calls = new java.util.TreeMap<>();
            double cpu = 0;
            for (RedisClient c : masters) {
                java.util.regex.Matcher m = CALLS.matcher(c.info("commandstats"));
                while (m.find()) calls.merge(m.group(1), Long.parseLong(m.group(2)), Long::sum);
                java.util.regex.Matcher t = CPU.matcher(c.info("cpu"));
                while (t.find()) cpu += Double.parseDouble(t.group(1));
            }
            return new RedisCounters(calls, cpu);
        }

        /** What was spent since {@code earlier}, without the INFO calls that measured it. */
        RedisCounters minus(RedisCounters earlier) {
            Map<String, Long> d = new java.util.TreeMap<>();
            calls.forEach((k, v) -> {
                long n = v - earlier.calls.getOrDefault(k, 0L);
                if (n > 0 && !k.equals("info")) d.put(k, n);
            });
            return new RedisCounters(d, cpuSeconds - earlier.cpuSeconds);
        }

        long total() {
            return calls.values().stream().mapToLong(Long::longValue).sum();
        }

        String perFollow(int follows) {
            StringBuilder out = new StringBuilder();
            calls.forEach((k, v) -> {
                if (v * 100L >= follows) out.append(out.isEmpty() ? "" : ", ").append(k).append(' ').append(String.format(Locale.ROOT, "%.2f", (double) v / follows));
            });
            return out.toString();
        }
    }

    private static String row(String name, double rate, String unit, String ratio, String p50, String p99) {
        return String.format(Locale.ROOT, "| %s | %,.0f | %s | %s | %s | %s |", name, rate, unit, ratio, p50, p99);
    }

    private static String ratio(double x, double raw) {
        return String.format(Locale.ROOT, "%.2f", x / raw);
    }

    private static String ms(long micros) {
        return String.format(Locale.ROOT, "%.3f", micros / 1000.0);
    }
}
