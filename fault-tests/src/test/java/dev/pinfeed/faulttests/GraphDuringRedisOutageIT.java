package dev.pinfeed.faulttests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalReads;
import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalSeed;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.events.UserFollowed;
import dev.pinfeed.events.UserUnfollowed;
import dev.pinfeed.eventsschema.AvroEventSerializer;
import dev.pinfeed.feedservice.FeedServiceServer;
import dev.pinfeed.feedservice.ReaderAuth;
import dev.pinfeed.httpkit.ReaderClaims;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.UserRelation;
import dev.pinfeed.followergraph.redis.GraphConnections;
import dev.pinfeed.graphprocessor.GraphProcessorMain;
import dev.pinfeed.httpkit.Meters;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.processorruntime.KafkaClients;
import dev.pinfeed.redisshards.VirtualShards;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.avro.specific.SpecificRecord;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A fault of the suite: the Redis master redis002 killed with kill -9 for ~10 s while follows and
 * unfollows are published to a fresh follows topic (acknowledged = Kafka acknowledged, what ingest's
 * 202 means; not through ingest, whose id placement need not put users on both Redis instances) for a
 * graph processor in this JVM (fresh key prefix), and feed-service's graph route reads them. Users are
 * fresh ids picked so each edge lives on one instance. Checked:
 * reads for redis002's users answer 503 naming it while redis001's keep answering 200; after the
 * restart the processor's parked records land and the final graph holds the last acknowledged follow
 * or unfollow of every pair. Also measured, with a direct writer on redis002: the edges Redis itself
 * acknowledged and lost to AOF everysec.
 */
@ExtendWith(StackExtension.class)
class GraphDuringRedisOutageIT {

    private static final Duration DOWN = Duration.ofSeconds(10);
    private static final String HEALTHY = "redis001";
    private static final String KILLED = "redis002";

    private record Pair(long follower, long followee) {}

    @Test
    void theKilledInstancesUsersFailCleanlyTheOthersWorkAndTheGraphIsCompleteAfterwards(TestStack stack) throws Exception {
        Preload.pinfeedClasses();
        try (Processors processors = new Processors(stack)) {
            CuratorFramework zk = processors.closing(CuratorClients.connected(stack.config(), 20));
            GraphConnections graph = processors.closing(GraphConnections.open(stack.config(), zk, stack.keyPrefix("fault-graph")));
            String follows = stack.uniqueTopic("fault-follows");
            String boards = stack.uniqueTopic("fault-boards");
            stack.createTopics(3, List.of(follows, boards));
            processors.consume(GraphProcessorMain.NAME, List.of(follows, boards), GraphProcessorMain.handler(graph.store(), stack.config(), Meters.newRegistry()));
            KafkaProducer<String, SpecificRecord> producer = processors.closing(new KafkaProducer<>(KafkaClients.producer(stack.config(),
                    "fault-graph-writer"), new StringSerializer(), new AvroEventSerializer(processors.registry)));
            ShardDataSources mysql = processors.closing(ShardDataSources.from(stack.config(), "fault-graph", 2));
            ShardedDb db = processors.closing(new ShardedDb(mysql));
            // One service token reads for every reader thread: no per-token rate limit in the way of the outage's measure.
            ReaderAuth.SelfIssued tokens = ReaderAuth.selfIssued(stack.config().withOverrides(Map.of("feed.auth.rate-per-second", "1000000",
                    "feed.auth.rate-burst", "1000000")), Clock.systemUTC());
            String serviceToken = ReaderClaims.serviceToken(tokens.issuer(), "fault-tests", Duration.ofHours(1));
            RunningHttpApp feed = processors.closing(FeedServiceServer.app(stack.config(), tokens.auth(), graph.store(), new MysqlCanonicalReads(db),
                    Meters.newRegistry(), Map.of()).start("127.0.0.1", 0));
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            // The graph routes answer 404 for users the canonical store does not know: the pairs' users are seeded in MySQL.
            MysqlCanonicalSeed seed = new MysqlCanonicalSeed(db, (id, keys) -> {});

            // Fresh user ids on each instance: the graph processor does not check that users exist (the materializer does).
            List<Pair> healthyPairs = pairs(seededUsersOn(stack, graph, seed, HEALTHY));
            List<Pair> killedPairs = pairs(seededUsersOn(stack, graph, seed, KILLED));
            // Expected final state: the last acknowledged follow (true) or unfollow (false) of each pair; one writer per instance keeps the order.
            Map<Pair, Boolean> expected = new ConcurrentHashMap<>();
            LoadLoop.Call healthyWrites = toggles(stack, producer, follows, healthyPairs, expected);
            LoadLoop.Call killedWrites = toggles(stack, producer, follows, killedPairs, expected);
            LoadLoop.Call healthyReads = relationReads(http, feed, serviceToken, healthyPairs);
            LoadLoop.Call killedReads = relationReads(http, feed, serviceToken, killedPairs);

            // The AOF probe: edges between fresh ids on redis002, written straight to Redis; acknowledged = apply returned.
            ConcurrentLinkedQueue<long[]> probeAcks = new ConcurrentLinkedQueue<>(); // follower, followee, ack nanos
            AtomicBoolean probing = new AtomicBoolean(true);
            Thread probe = new Thread(() -> {
                while (probing.get()) {
                    long a = freshUserOn(stack, graph, KILLED);
                    long b = freshUserOn(stack, graph, KILLED);
                    try {
                        graph.store().apply(new GraphCommand.FollowUser(stack.freshId(), System.currentTimeMillis(), a, b));
                        probeAcks.add(new long[] {a, b, System.nanoTime()});
                    } catch (RuntimeException down) {
                        Outage.sleep(100);
                    }
                    Outage.sleep(5);
                }
            }, "redis-aof-probe");
            probe.setDaemon(true);

            Outage outage;
            List<Samples.Sample> readsHealthy;
            List<Samples.Sample> readsKilled;
            List<Samples.Sample> writesKilled;
            try (LoadLoop wh = new LoadLoop("graph-write-" + HEALTHY, 1, 20, healthyWrites);
                 LoadLoop wk = new LoadLoop("graph-write-" + KILLED, 1, 20, killedWrites);
                 LoadLoop rh = new LoadLoop("graph-read-" + HEALTHY, 2, 10, healthyReads);
                 LoadLoop rk = new LoadLoop("graph-read-" + KILLED, 2, 10, killedReads)) {
                probe.start();
                Outage.sleep(3_000);
                try (Outage o = Outage.kill9(stack.servers(), KILLED + "-master")) {
                    outage = o;
                    probing.set(false);
                    Outage.sleep(DOWN.toMillis());
                    o.restart();
                }
                probe.join(30_000);
                Outage.sleep(3_000);
                wh.close();
                wk.close();
                rh.close();
                rk.close();
                readsHealthy = rh.samples().startedBetween(outage.killedAt(), outage.restartedAt());
                readsKilled = rk.samples().startedBetween(outage.killedAt(), outage.restartedAt());
                writesKilled = wk.samples().startedBetween(outage.killedAt(), outage.restartedAt());
            }
            Outage.awaitUp(stack, KILLED + "-replica");

            // The processor catches up: the last acknowledged state of every pair.
            List<Pair> wrong = new ArrayList<>();
            try {
                FeedReadsDuringHBaseOutageIT.await(Duration.ofSeconds(90), "the graph to hold every acknowledged follow and unfollow", () -> {
                    wrong.clear();
                    expected.forEach((p, followed) -> {
                        boolean actual = graph.store().relation(p.follower(), p.followee()) == UserRelation.EXPLICIT;
                        if (actual != followed) wrong.add(p);
                    });
                    return wrong.isEmpty();
                });
            } catch (AssertionError notYet) {
                // reported below
            }
            List<long[]> acked = List.copyOf(probeAcks);
            List<long[]> lost = acked.stream().filter(e -> graph.store().relation(e[0], e[1]) != UserRelation.EXPLICIT).toList();
            double lostWindowMs = lost.stream().mapToLong(e -> outage.killedAt() - e[2]).max().orElse(0) / 1e6;
            double lastAckMs = acked.stream().mapToLong(e -> outage.killedAt() - e[2]).min().orElse(-1) / 1e6;
            long lastSecond = acked.stream().filter(e -> outage.killedAt() - e[2] < 1_000_000_000L).count();

            FaultReport report = FaultReport.of("Redis " + KILLED + "-master kill -9, restart after " + DOWN.toSeconds() + " s", outage, readsHealthy,
                    200, expected.size(), expected.size() - wrong.size(), String.format(Locale.ROOT,
                            "reads = GET following/users on %s's users (2 readers); %s's users: %s; follows/unfollows published for %s's users "
                                    + "during the fault: %s; AOF probe: %d edges acknowledged by %s (%d in the last second, the last %.0f ms before the kill), %d lost (%.0f ms window)",
                            HEALTHY, KILLED, Samples.histogram(readsKilled), KILLED, Samples.histogram(writesKilled), acked.size(), KILLED, lastSecond, lastAckMs,
                            lost.size(), lostWindowMs));
            report.publish();

            assertThat(readsHealthy).as("reads for %s's users during the outage", HEALTHY).isNotEmpty();
            assertThat(report.availability()).as("%s's reads: %s", HEALTHY, Samples.histogram(readsHealthy)).isEqualTo(100.0);
            List<Samples.Sample> refused = readsKilled.stream().filter(s -> s.status() != 200).toList();
            assertThat(refused).as("reads for %s's users", KILLED).isNotEmpty().allSatisfy(s -> {
                assertThat(s.status()).as(s.detail()).isEqualTo(503);
                assertThat(s.detail()).contains(KILLED);
            });
            assertThat(wrong).as("pairs whose final relation is not the last acknowledged follow/unfollow").isEmpty();
        }
    }

    private static String instanceOf(GraphConnections graph, long user) {
        return graph.shards().get().instanceOf(VirtualShards.of(user));
    }

    private static long freshUserOn(TestStack stack, GraphConnections graph, String instance) {
        for (int attempt = 0; ; attempt++) {
            if (attempt > 10_000) throw new AssertionError("no fresh id on " + instance + " in 10000 tries: instances " + graph.shards().get().instances());
            long local = (1L << 35) | (stack.freshId() & ((1L << 35) - 1));
            long id = ShardedId.compose((int) (local % 4096), ObjectType.USER, local);
            if (instanceOf(graph, id).equals(instance)) return id;
        }
    }

    private static List<Long> seededUsersOn(TestStack stack, GraphConnections graph, MysqlCanonicalSeed seed, String instance) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            long id = freshUserOn(stack, graph, instance);
            seed.user(id, "rg" + Long.toString(id, 36), "Graph " + id, System.currentTimeMillis());
            out.add(id);
        }
        return out;
    }

    private static List<Pair> pairs(List<Long> users) {
        List<Pair> out = new ArrayList<>();
        for (long a : users) for (long b : users) if (a != b) out.add(new Pair(a, b));
        return out;
    }

    /**
     * Follow, then unfollow, then follow ... each pair in turn, published as ingest publishes them (keyed by the
     * follower); once Kafka acknowledged the event (as ingest's 202 means) the pair's expected state flips.
     */
    private static LoadLoop.Call toggles(TestStack stack, KafkaProducer<String, SpecificRecord> producer, String topic, List<Pair> pairs,
                                         Map<Pair, Boolean> expected) {
        return (t, i) -> {
            Pair p = pairs.get((int) (i % pairs.size()));
            boolean follow = !expected.getOrDefault(p, false);
            java.time.Instant now = java.time.Instant.now();
            SpecificRecord event = follow ? new UserFollowed(stack.freshId(), now, p.follower(), p.follower(), p.followee())
                    : new UserUnfollowed(stack.freshId(), now, p.follower(), p.follower(), p.followee());
            producer.send(new ProducerRecord<>(topic, Long.toString(p.follower()), event)).get(30, TimeUnit.SECONDS);
            expected.put(p, follow);
            return new Samples.Result(202, null);
        };
    }

    private static LoadLoop.Call relationReads(HttpClient http, RunningHttpApp feed, String serviceToken, List<Pair> pairs) {
        return (t, i) -> {
            Pair p = pairs.get((int) ((i * 7 + t) % pairs.size()));
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(feed.baseUri() + "/v1/users/" + p.follower() + "/following/users/"
                    + p.followee())).header("Authorization", "Bearer " + serviceToken)
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
            return Samples.Result.of(r.statusCode(), 200, r.body());
        };
    }
}
