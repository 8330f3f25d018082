package dev.pinfeed.faulttests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalReads;
import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalSeed;
import dev.pinfeed.canonicalstore.reads.CachedCanonicalReads;
import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.canonicalstore.redis.RedisCanonicalCache;
import dev.pinfeed.feedservice.FeedMetrics;
import dev.pinfeed.feedservice.FeedServiceServer;
import dev.pinfeed.feedservice.HomeFeedThreads;
import dev.pinfeed.feedservice.ReaderAuth;
import dev.pinfeed.httpkit.ReaderClaims;
import dev.pinfeed.feedservice.homefeed.HomeFeed;
import dev.pinfeed.feedservice.homefeed.HomeFeedSettings;
import dev.pinfeed.feedstore.Chunk;
import dev.pinfeed.feedstore.FeedItem;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.SpeculativeSettings;
import dev.pinfeed.feedstore.hbase.HBaseClusters;
import dev.pinfeed.feedstore.hbase.HBaseMaterializedFeedStore;
import dev.pinfeed.feedstore.hbase.HBasePoolStore;
import dev.pinfeed.feedstore.hbase.SpeculativeHBaseStores;
import dev.pinfeed.feedstore.redis.RedisLastReadStore;
import dev.pinfeed.followergraph.sharded.InMemoryGraphStore;
import dev.pinfeed.httpkit.Meters;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisShards;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.client.Connection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.RedisClient;

/**
 * A fault of the suite: the HBase primary killed with kill -9 for 60 s while readers call
 * {@code GET /v1/users/{id}/feed} on feed-service's app (in this JVM, over {@link SpeculativeHBaseStores}
 * as FeedServiceServer.main wires it) and a writer adds pool entries to the primary, retrying each
 * write until it returns. Checked: reads keep answering 200 during the outage (availability and p99
 * measured), and after the restart every acknowledged pool entry is in the primary's pools.
 *
 * <p>The hbase-primary server also runs the application ZooKeeper; the in-process app here reads the
 * MySQL and Redis shard maps from the configuration, not from ZooKeeper, so only HBase is exercised.
 * The graph is in memory (the feed reads it only to regenerate pools, not the subject here).
 */
@ExtendWith(StackExtension.class)
class FeedReadsDuringHBaseOutageIT {

    private static final Duration DOWN = Duration.ofSeconds(60);
    private static final int READERS = 4;
    private static final int USERS = 12;
    private static final long T0 = 1_767_225_600_000L;

    @Test
    void feedReadsAreServedFromTheStandbyAndEveryAcknowledgedPoolWriteLandsOnThePrimary(TestStack stack) throws Exception {
        Preload.pinfeedClasses();
        List<AutoCloseable> open = new ArrayList<>();
        try {
            ShardDataSources sources = closing(open, ShardDataSources.from(stack.config(), "fault-hbase", 4));
            ShardedDb db = closing(open, new ShardedDb(sources));
            Map<String, RedisClient> redis = RedisCanonicalCache.clients(stack.config(), Duration.ofSeconds(2), 8);
            redis.values().forEach(r -> open.add(r));
            Connection primary = closing(open, HBaseClusters.connect(stack.config(), HBaseClusters.PRIMARY));
            Connection standby = closing(open, HBaseClusters.connect(stack.config(), HBaseClusters.STANDBY));
            PrometheusMeterRegistry meters = Meters.newRegistry();
            SpeculativeHBaseStores hbase = closing(open, SpeculativeHBaseStores.over(primary, standby, SpeculativeSettings.from(stack.config()),
                    Duration.ofSeconds(1), meters));
            FeedMetrics metrics = new FeedMetrics(meters);
            CanonicalReads reads = new CachedCanonicalReads(new MysqlCanonicalReads(db),
                    new RedisCanonicalCache(redis, () -> RedisShards.defaultShardMap(stack.config()), Duration.ofMinutes(10)), metrics,
                    CachedCanonicalReads.DEFAULT_LIST_SIZE);
            MysqlCanonicalSeed seed = new MysqlCanonicalSeed(db, (id, keys) -> {}); // fresh ids: no cache holds them

            // Readers with a materialized feed and a pool; writer users apart (a read moves served entries out of the pools).
            HBasePoolStore primaryPools = closing(open, new HBasePoolStore(primary, HBaseClusters.PRIMARY));
            HBaseMaterializedFeedStore primaryFeeds = new HBaseMaterializedFeedStore(primary, HBaseClusters.PRIMARY);
            HBasePoolStore standbyPools = HBasePoolStore.readOnly(standby, HBaseClusters.STANDBY);
            HBaseMaterializedFeedStore standbyFeeds = new HBaseMaterializedFeedStore(standby, HBaseClusters.STANDBY);
            List<Long> pins = pins(stack, seed, 40);
            List<Long> readers = new ArrayList<>();
            for (int u = 0; u < USERS; u++) {
                long user = user(stack, seed);
                readers.add(user);
                primaryFeeds.materialize(new Chunk(user, 1L << 40, pins.subList(0, 20).stream()
                        .map(p -> new FeedItem(p, Source.FOLLOWED_USER, 0.5, 1, 2)).toList()));
                List<PoolEntry> pool = new ArrayList<>();
                for (int i = 20; i < 40; i++) pool.add(new PoolEntry(user, Source.FOLLOWED_USER, 100 - i, pins.get(i), 1, 2, T0 + i));
                primaryPools.upsert(pool);
            }
            await(Duration.ofSeconds(60), "the standby to have every reader's feed and pool", () -> readers.stream()
                    .allMatch(u -> standbyFeeds.all(u).size() >= 20 && standbyPools.all(u).size() >= 20));

            HomeFeedThreads threads = closing(open, HomeFeedThreads.from(stack.config()));
            RedisLastReadStore lastReads = closing(open, RedisLastReadStore.connect(RedisMasterConfig.fixed(stack.config()),
                    () -> RedisShards.defaultShardMap(stack.config()), stack.keyPrefix("outage-reads"), Duration.ofMillis(500)));
            HomeFeed homeFeed = FeedServiceServer.homeFeed(stack.config(), HomeFeedSettings.from(stack.config()), hbase.pools(),
                    hbase.materializedFeed(), lastReads, reads, new InMemoryGraphStore(), threads, metrics, Clock.systemUTC());
            ReaderAuth.SelfIssued tokens = ReaderAuth.selfIssued(stack.config(), Clock.systemUTC());
            RunningHttpApp app = closing(open, FeedServiceServer.app(stack.config(), tokens.auth(), new InMemoryGraphStore(), reads, homeFeed, meters, Map.of())
                    .start("127.0.0.1", 0));
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

            // The writer: one pool entry at a time for its own users, each retried until upsert returns (acknowledged).
            List<Long> writers = List.of(user(stack, seed), user(stack, seed), user(stack, seed));
            ConcurrentLinkedQueue<PoolEntry> acknowledged = new ConcurrentLinkedQueue<>();
            AtomicBoolean writing = new AtomicBoolean(true);
            HBasePoolStore writerPools = closing(open, new HBasePoolStore(primary, HBaseClusters.PRIMARY));
            Thread writer = new Thread(() -> {
                for (int i = 0; writing.get(); i++) {
                    // A fresh pin id per write, so every acknowledged write is its own cell to find afterwards.
                    PoolEntry e = new PoolEntry(writers.get(i % writers.size()), Source.FOLLOWED_USER, 1 + i % 97, freshPin(stack), 1, 2, T0 + i);
                    while (true) {
                        try {
                            writerPools.upsert(List.of(e));
                            acknowledged.add(e);
                            break;
                        } catch (RuntimeException down) {
                            Outage.sleep(200); // HBase down: retry the same entry until it lands
                        }
                    }
                    Outage.sleep(50);
                }
            }, "hbase-fault-writer");
            writer.setDaemon(true);

            Outage outage;
            List<Samples.Sample> samples;
            try (LoadLoop load = new LoadLoop("hbase-fault-reader", READERS, 10, (t, i) -> {
                long user = readers.get((int) ((t * 7 + i) % readers.size()));
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(app.baseUri() + "/v1/users/" + user + "/feed?limit=20"))
                        .header("Authorization", "Bearer " + ReaderClaims.userToken(tokens.issuer(), user, Duration.ofMinutes(30)))
                        .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
                return Samples.Result.of(r.statusCode(), 200, r.body());
            })) {
                writer.start();
                Outage.sleep(5_000); // baseline: the cutoff learns the primary's latencies
                try (Outage o = Outage.kill9(stack.servers(), "hbase-primary")) {
                    outage = o;
                    Outage.sleep(DOWN.toMillis());
                    o.restart();
                }
                Outage.sleep(5_000); // reads and writes after the return
                load.close();
                samples = load.samples().all();
            } finally {
                writing.set(false);
                writer.join(120_000);
            }
            assertThat(writer.isAlive()).as("the writer's last write landed after the restart").isFalse();

            List<Samples.Sample> duringFault = samples.stream()
                    .filter(s -> s.startNanos() >= outage.killedAt() && s.startNanos() < outage.restartedAt()).toList();
            List<PoolEntry> acks = List.copyOf(acknowledged);
            Map<Long, Set<Long>> onPrimary = writers.stream().collect(Collectors.toMap(u -> u,
                    u -> primaryPools.all(u).stream().map(PoolEntry::pinId).collect(Collectors.toSet())));
            List<PoolEntry> missing = acks.stream().filter(e -> !onPrimary.get(e.userId()).contains(e.pinId())).toList();
            List<Samples.Sample> failed = duringFault.stream().filter(s -> s.status() != 200).toList();
            FaultReport report = FaultReport.of("HBase primary kill -9, restart after " + DOWN.toSeconds() + " s", outage, duringFault, 200, acks.size(),
                    acks.size() - missing.size(), String.format(Locale.ROOT,
                            "GET /v1/users/{id}/feed ×%d readers over SpeculativeHBaseStores; p99 before the fault %.0f ms; max during %.0f ms; "
                                    + "pool writes retried until they returned; restart took %.1f s%s",
                            READERS, Samples.percentileMs(samples.stream().filter(s -> s.startNanos() < outage.killedAt()).toList(), 99),
                            Samples.maxMs(duringFault), (outage.upAt() - outage.restartedAt()) / 1e9,
                            failed.isEmpty() ? "" : "; not 200: " + Samples.histogram(failed) + " e.g. " + failed.get(0).detail()));
            report.publish();

            assertThat(duringFault).as("feed reads while the primary was down").hasSizeGreaterThan(READERS * 10);
            assertThat(report.availability()).as("availability of feed reads during the outage (%%): %s", Samples.histogram(duringFault))
                    .isGreaterThanOrEqualTo(99.0);
            assertThat(missing).as("acknowledged pool entries missing from the primary after its restart").isEmpty();
        } finally {
            for (int i = open.size() - 1; i >= 0; i--) {
                try {
                    open.get(i).close();
                } catch (Exception ignored) { // teardown: the shared stack outlives us
                }
            }
        }
    }

    private static <T extends AutoCloseable> T closing(List<AutoCloseable> open, T resource) {
        open.add(resource);
        return resource;
    }

    private static long freshLocal(TestStack stack) {
        return (1L << 35) | (stack.freshId() & ((1L << 35) - 1));
    }

    private static long freshPin(TestStack stack) {
        long local = freshLocal(stack);
        return ShardedId.compose((int) (local % 4096), ObjectType.PIN, local);
    }

    private static long user(TestStack stack, MysqlCanonicalSeed seed) {
        long local = freshLocal(stack);
        long id = ShardedId.compose((int) (local % 4096), ObjectType.USER, local);
        seed.user(id, "hb" + Long.toString(local, 36), "Reader " + local, T0);
        return id;
    }

    /** {@code n} pins of a fresh author on one board, in MySQL (so the feed hydrates them). */
    private static List<Long> pins(TestStack stack, MysqlCanonicalSeed seed, int n) {
        long author = user(stack, seed);
        long board = ShardedId.compose(ShardedId.decode(author).shard(), ObjectType.BOARD, freshLocal(stack));
        seed.board(board, author, "Board", null, T0);
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long id = ShardedId.compose(ShardedId.decode(board).shard(), ObjectType.PIN, freshLocal(stack));
            seed.pin(id, board, author, "pin " + id, null, null, T0 + i);
            out.add(id);
        }
        return out;
    }

    static void await(Duration patience, String what, java.util.function.BooleanSupplier done) {
        long deadline = System.nanoTime() + patience.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("waited " + patience + " for " + what);
            Outage.sleep(200);
        }
    }
}
