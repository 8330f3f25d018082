package dev.pinfeed.faulttests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalReads;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalWriter;
import dev.pinfeed.canonicalstore.redis.RedisCacheInvalidator;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.materializer.EventPlanner;
import dev.pinfeed.materializer.MaterializerHandler;
import dev.pinfeed.materializer.MaterializerMain;
import dev.pinfeed.materializer.MaterializerTopics;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.redisshards.RedisShards;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A fault of the suite: the master of MariaDB shard host mysql002 killed with kill -9 for ~10 s under
 * ingest load, half of it for boards on mysql001's shards, half for boards on mysql002's. Checked:
 * pins on mysql001's shards keep answering 202; those on mysql002's answer 503 naming it; both recover
 * by themselves after the restart; a materializer running in this JVM on the fresh topics writes a row
 * for every acknowledged pin (it parks what it cannot write and retries, it does not lose it).
 */
@ExtendWith(StackExtension.class)
class IngestDuringMysqlOutageIT {

    private static final Duration DOWN = Duration.ofSeconds(10);
    private static final String HEALTHY = "mysql001";
    private static final String KILLED = "mysql002";
    /** Half the shard pools' 5 s connection timeout (ShardDataSources): a refusal faster than this did not wait it out. */
    private static final Duration REFUSED_AT_ONCE = Duration.ofMillis(2_500);

    @Test
    void theOtherHostKeepsAnsweringTheKilledHostAnswers503AndTheMaterializerLosesNothing(TestStack stack) throws Exception {
        try (IngestFixture ingest = new IngestFixture(stack); Processors processors = new Processors(stack)) {
            ShardDataSources mysql = processors.closing(ShardDataSources.from(stack.config(), "fault-mysql", 4));
            ShardedDb db = processors.closing(new ShardedDb(mysql));
            MaterializerTopics topics = new MaterializerTopics(ingest.topics.topic(EventTopics.USERS), ingest.topics.topic(EventTopics.BOARDS),
                    ingest.topics.topic(EventTopics.PINS), ingest.topics.topic(EventTopics.LIKES), ingest.topics.topic(EventTopics.COMMENTS),
                    ingest.topics.topic(EventTopics.INTERESTS));
            MysqlCanonicalWriter writer = processors.closing(new MysqlCanonicalWriter(db));
            RedisCacheInvalidator invalidator = processors.closing(RedisCacheInvalidator.connect(stack.config(),
                    () -> RedisShards.defaultShardMap(stack.config())));
            SimpleMeterRegistry loopMeters = processors.consume(MaterializerMain.NAME, topics.all(),
                    new MaterializerHandler(new EventPlanner(), writer, invalidator, topics, new SimpleMeterRegistry()));

            long[] healthy = authorAndBoardOn(ingest, HEALTHY);
            long[] killed = authorAndBoardOn(ingest, KILLED);
            Outage outage;
            List<Samples.Sample> onHealthy;
            List<Samples.Sample> onKilled;
            double recovered;
            // Thread indexes apart (0-1, 10-11): each writer keeps its own pending Idempotency-Key.
            try (LoadLoop toHealthy = new LoadLoop("mysql-fault-" + HEALTHY, 2, 20, (t, i) -> ingest.attemptPin(t, healthy[1], healthy[0]));
                 LoadLoop toKilled = new LoadLoop("mysql-fault-" + KILLED, 2, 20, (t, i) -> ingest.attemptPin(10 + t, killed[1], killed[0]))) {
                Outage.sleep(3_000);
                try (Outage o = Outage.kill9(stack.servers(), KILLED + "-master")) {
                    outage = o;
                    Outage.sleep(DOWN.toMillis());
                    o.restart();
                }
                FeedReadsDuringHBaseOutageIT.await(Duration.ofSeconds(60), "a 202 again for a pin on " + KILLED, () -> toKilled.samples().all().stream()
                        .anyMatch(s -> s.status() == 202 && s.startNanos() >= outage.upAt()));
                Outage.sleep(2_000);
                toHealthy.close();
                toKilled.close();
                onHealthy = toHealthy.samples().startedBetween(outage.killedAt(), outage.restartedAt());
                onKilled = toKilled.samples().startedBetween(outage.killedAt(), outage.restartedAt());
                // recovery: the first 202 on the killed host's shards after it was up, no app restarted
                recovered = toKilled.samples().all().stream().filter(s -> s.status() == 202 && s.startNanos() >= outage.upAt())
                        .mapToLong(s -> s.startNanos() + s.latencyNanos()).min().orElseThrow() / 1e9 - outage.upAt() / 1e9;
            }
            awaitMaster(stack); // the replica reconnects by itself (MASTER_CONNECT_RETRY=1); the master is what we restarted

            List<IngestFixture.Ack> acks = ingest.acknowledged();
            MysqlCanonicalReads reads = new MysqlCanonicalReads(db);
            long[] found = new long[1];
            try {
                // The check reads through the materializer's own pool, which may still be backing off from the restarted
                // master for a moment after ingest's first 202: such a read is "not yet", not a lost pin.
                FeedReadsDuringHBaseOutageIT.await(Duration.ofSeconds(120), "the materializer to write every acknowledged pin", () -> {
                    try {
                        return (found[0] = acks.stream().filter(a -> reads.pin(a.pinId()).isPresent()).count()) == acks.size();
                    } catch (StoreUnavailableException backingOff) {
                        return false;
                    }
                });
            } catch (AssertionError notAll) {
                // reported below with the figures
            }
            List<Samples.Sample> killedRefusals = onKilled.stream().filter(s -> s.status() != 202).toList();
            FaultReport report = FaultReport.of("MariaDB " + KILLED + "-master kill -9, restart after " + DOWN.toSeconds() + " s", outage, onHealthy,
                    202, acks.size(), found[0], String.format(Locale.ROOT,
                            "reads = ingest POST /v1/pins on %s's shards (2 writers); on %s's shards: %s, refusals p50 %.0f ms, slowest %.0f ms, "
                                    + "first 202 %.1f s after its restart; materializer parked records at the end: %s",
                            HEALTHY, KILLED, Samples.histogram(onKilled), Samples.percentileMs(killedRefusals, 50), Samples.maxMs(killedRefusals), recovered,
                            loopMeters.getMeters().stream().filter(m -> m.getId().getName().contains("parked"))
                                    .map(m -> m.getId().getName() + "=" + m.measure().iterator().next().getValue()).toList()));
            report.publish();

            assertThat(onHealthy).as("pins on %s's shards during the outage", HEALTHY).isNotEmpty();
            assertThat(report.availability()).as("%s kept answering 202: %s", HEALTHY, Samples.histogram(onHealthy)).isGreaterThanOrEqualTo(99.0);
            assertThat(killedRefusals).as("refusals for %s's shards", KILLED).isNotEmpty()
                    .allSatisfy(s -> {
                        assertThat(s.status()).as(s.detail()).isEqualTo(503);
                        assertThat(s.detail()).contains(KILLED);
                    });
            // A host known to be down is refused at once (one caller a second still waits the pool's timeout trying it).
            // "At once" is p50 8 ms (docs/benchmarks.md); a caller that is not refused at once waits the pool's whole
            // 5 s connection timeout, never less. Half of that separates the two with seconds to spare on a loaded box.
            long fast = killedRefusals.stream().filter(s -> s.latencyNanos() < REFUSED_AT_ONCE.toNanos()).count();
            assertThat(fast).as("refusals for %s's shards answered within %s (half the pool's 5 s connection timeout): %s", KILLED,
                            REFUSED_AT_ONCE, Samples.histogram(killedRefusals))
                    .isGreaterThanOrEqualTo(killedRefusals.size() / 2 + 1);
            assertThat(found[0]).as("acknowledged pins with a row in MySQL").isEqualTo(acks.size());
        }
    }

    /** A fresh user whose shard is on {@code host} (ids are placed on random shards: create until one lands there) and his board. */
    private static long[] authorAndBoardOn(IngestFixture ingest, String host) throws Exception {
        for (int attempt = 0; attempt < 50; attempt++) {
            long user = ingest.user();
            if (ingest.components.shards().current().hostOf(ShardedId.decode(user).shard()).equals(host)) {
                long board = ingest.board(user);
                assertThat(ingest.components.shards().current().hostOf(ShardedId.decode(board).shard())).isEqualTo(host);
                return new long[] {user, board};
            }
        }
        throw new AssertionError("no user landed on " + host + " in 50 tries");
    }

    private static void awaitMaster(TestStack stack) {
        Outage.awaitUp(stack, KILLED + "-replica");
    }
}
