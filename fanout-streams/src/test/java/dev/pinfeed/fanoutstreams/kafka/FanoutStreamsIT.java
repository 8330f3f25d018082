package dev.pinfeed.fanoutstreams.kafka;

import static dev.pinfeed.fanoutstreams.kafka.StackFixtures.lastChunksOf;
import static dev.pinfeed.fanoutstreams.kafka.StackFixtures.receiversOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.events.FanoutSource;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.fanoutstreams.FanoutSettings;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The fan-out app in process against the real broker (exactly-once), registry, and Redis (graph, last reads). */
@ExtendWith(StackExtension.class)
class FanoutStreamsIT {

    @TempDir
    Path stateDir;

    @Test
    void everyReceiverGetsEachPinExactlyOnceWithItsSourceAndPoisonIsSetAside(TestStack stack) throws Exception {
        try (StackFixtures f = new StackFixtures(stack)) {
            long ana = stack.freshId(), anaBoard = stack.freshId(), ben = stack.freshId(), benBoard = stack.freshId();
            List<Long> anaFollowers = f.authorWithFollowers(ana, anaBoard, 3_000);
            List<Long> benFollowers = f.authorWithFollowers(ben, benBoard, 3);
            long boardOnly = stack.freshId();
            long unfollowedTheBoard = anaFollowers.get(0);
            f.apply(List.of(new GraphCommand.FollowBoard(f.nextVersion(), Instant.now().toEpochMilli(), boardOnly, anaBoard, ana),
                    new GraphCommand.UnfollowBoard(f.nextVersion(), Instant.now().toEpochMilli(), unfollowedTheBoard, anaBoard, ana)));

            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            try (FanoutStreamsApp app = FanoutStreamsApp.start(f.settings(stateDir), stack.config(), "0", f.registry,
                    f.graph.store(), f.lastReads, meters, Clock.systemUTC());
                 KafkaConsumer<byte[], byte[]> out = f.chunkReader();
                 KafkaConsumer<byte[], byte[]> dlq = f.reader(f.deadLetters)) {
                long anaPin = stack.freshId(), benPin = stack.freshId();
                long started = System.nanoTime();
                f.publishRaw("13", "garbage".getBytes(StandardCharsets.UTF_8));
                f.publish(f.pinCreated(anaPin, anaBoard, ana));
                f.publish(f.pinCreated(benPin, benBoard, ben));

                List<FanoutChunk> chunks = f.readChunks(out, new ArrayList<>(), lastChunksOf(anaPin, benPin), Duration.ofSeconds(90));
                long millis = (System.nanoTime() - started) / 1_000_000;

                Map<Long, List<FanoutSource>> toAna = receiversOf(chunks, anaPin);
                assertThat(toAna).hasSize(3_000); // 2 999 followers of Ana (one unfollowed the board) + one board follower
                assertThat(toAna.values()).allSatisfy(sources -> assertThat(sources).as("named once").hasSize(1));
                assertThat(toAna).doesNotContainKey(unfollowedTheBoard);
                assertThat(toAna.get(boardOnly)).containsExactly(FanoutSource.FOLLOWED_BOARD);
                assertThat(anaFollowers.subList(1, anaFollowers.size()))
                        .allSatisfy(u -> assertThat(toAna.get(u)).containsExactly(FanoutSource.FOLLOWED_USER));
                List<FanoutChunk> anaChunks = chunks.stream().filter(c -> c.getPinId() == anaPin).toList();
                // Chunk 0 on the pins' chunk topic, 1 and 2 on its bulk lane: no order between the two topics.
                assertThat(anaChunks).extracting(FanoutChunk::getChunkIndex).containsExactlyInAnyOrder(0, 1, 2);
                assertThat(anaChunks).allSatisfy(c -> assertThat(c.getReceivers()).hasSize(1_000));

                Map<Long, List<FanoutSource>> toBen = receiversOf(chunks, benPin);
                assertThat(toBen.keySet()).containsExactlyInAnyOrderElementsOf(benFollowers);

                List<ConsumerRecord<byte[], byte[]>> dead = new ArrayList<>();
                long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                while (dead.isEmpty() && System.nanoTime() < deadline) dlq.poll(Duration.ofMillis(200)).forEach(dead::add);
                assertThat(dead).as("the poison record, committed with the exactly-once transaction").singleElement().satisfies(d -> {
                    assertThat(new String(d.value(), StandardCharsets.UTF_8)).isEqualTo("garbage");
                    assertThat(new String(d.headers().lastHeader(DeadLetters.HEADER_REASON).value(), StandardCharsets.UTF_8))
                            .isEqualTo(DeadLetters.UNDECODABLE);
                    assertThat(new String(d.headers().lastHeader(DeadLetters.HEADER_CONSUMER).value(), StandardCharsets.UTF_8))
                            .isEqualTo(f.applicationId);
                });
                app.checkLive();
                // A rebalance (a probing one, or the dead-letter topic's metadata) may be under way: ready again within a minute.
                Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                    assertThat(app.state()).isEqualTo(KafkaStreams.State.RUNNING);
                    app.checkReady();
                });
                assertThat(meters.get("fanout.chunks").tag("action", "ADD").counter().count()).isEqualTo(4);
                System.err.printf("[fanout-it] 3 000 + 3 receivers fanned out in %d ms from publish to the last committed chunk%n", millis);
                System.err.println("[fanout-it] meters: " + meters.getMeters().stream().filter(m -> m.getId().getName().startsWith("fanout"))
                        .map(m -> m.getId().getName() + m.getId().getTags() + "=" + m.measure().iterator().next().getValue())
                        .collect(Collectors.joining(", ")));
            }
        }
    }

    @Test
    void aRestartedFanOutStillKnowsWhichReceiversAreActive(TestStack stack) throws Exception {
        try (StackFixtures f = new StackFixtures(stack)) {
            long ana = stack.freshId(), anaBoard = stack.freshId();
            List<Long> followers = f.authorWithFollowers(ana, anaBoard, 1_500);
            long away = followers.get(0); // last read 40 days ago (the policy's window is 30): no ADD
            f.lastReads.recordRead(away, System.currentTimeMillis() - 40L * 86_400_000);
            List<Long> active = followers.subList(1, followers.size());
            FanoutSettings settings = f.settings(stateDir);

            SimpleMeterRegistry before = new SimpleMeterRegistry();
            assertThat(aPinsReceivers(stack, f, settings, before, ana, anaBoard)).containsExactlyInAnyOrderElementsOf(active);
            assertThat(before.get("fanout.last.reads.looked.up").counter().count()).as("nobody known yet: each one asked")
                    .isGreaterThanOrEqualTo(1_500);
            assertThat(before.get("fanout.inactive.skipped").counter().count()).isEqualTo(1);
            assertThat(settings.knownActiveFile()).as("saved at close, beside the streams state").exists();

            SimpleMeterRegistry after = new SimpleMeterRegistry();
            assertThat(aPinsReceivers(stack, f, settings, after, ana, anaBoard)).containsExactlyInAnyOrderElementsOf(active);
            assertThat(after.get("fanout.last.reads.looked.up").counter().count()).as("the restarted app knew every active one")
                    .isEqualTo(1);
        }
    }

    /** Starts the app, publishes a pin of the author, and returns its receivers once its last chunk is out; closes the app. */
    private static java.util.Set<Long> aPinsReceivers(TestStack stack, StackFixtures f, FanoutSettings settings,
                                                     SimpleMeterRegistry meters, long author, long board) throws Exception {
        try (FanoutStreamsApp app = FanoutStreamsApp.start(settings, stack.config(), "0", f.registry, f.graph.store(),
                f.lastReads, meters, Clock.systemUTC());
             KafkaConsumer<byte[], byte[]> out = f.chunkReader()) {
            long pin = stack.freshId();
            f.publish(f.pinCreated(pin, board, author));
            return receiversOf(f.readChunks(out, new ArrayList<>(), lastChunksOf(pin), Duration.ofSeconds(90)), pin).keySet();
        }
    }
}
