package dev.pinfeed.operations.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.fanoutstreams.kafka.FanoutStreamsMain;
import dev.pinfeed.fanoutstreams.kafka.StackFixtures;
import dev.pinfeed.infra.stacktestkit.ChildJvm;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.operations.ChildJvmProcessor;
import dev.pinfeed.operations.CliRun;
import dev.pinfeed.processorruntime.KafkaClients;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./pinfeed replay fanout --from beginning} against the fan-out application (its real main in a child JVM, on
 * fresh topics and a fresh application id): a dry run changes nothing; the replay does what Kafka's streams reset
 * tool does (input offsets moved, the internal changelog deleted, the local state wiped) and the application fans
 * every pin out again, to exactly the same receivers.
 */
@ExtendWith(StackExtension.class)
class ReplayFanoutIT {

    @TempDir Path stateDir;

    @Test
    void aDryRunChangesNothingAndAReplayFansEveryPinOutAgainToTheSameReceivers(TestStack stack) throws Exception {
        try (StackFixtures f = new StackFixtures(stack);
             KafkaGroups kafka = new KafkaGroups(Admin.create(KafkaClients.admin(stack.config())))) {
            long author = stack.freshId(), board = stack.freshId();
            f.authorWithFollowers(author, board, 30);
            long[] pins = {stack.freshId(), stack.freshId(), stack.freshId()};
            Map<String, String> props = f.processProperties(stateDir);
            props.put("graph.redis.key-prefix", f.keyPrefix);
            props.put(KafkaClients.INSTANCE, "replay-it");
            props.put("related.enabled", "false"); // the fan-out alone: no related-pins app on the shared likes topic
            props.put(FanoutStreamsMain.NAME + ".admin.http", "127.0.0.1:" + ChildJvm.freePort());
            var config = stack.config().withOverrides(props);
            List<FanoutChunk> read = new ArrayList<>();
            try (ChildJvmProcessor fanout = new ChildJvmProcessor(FanoutStreamsMain.NAME, FanoutStreamsMain.class.getName(), props, stateDir);
                 KafkaConsumer<byte[], byte[]> out = f.chunkReader()) {
                fanout.start();
                for (long pin : pins) f.publish(f.pinCreated(pin, board, author));
                f.readChunks(out, read, StackFixtures.lastChunksOf(pins), Duration.ofSeconds(120));
                assertThat(read).as("first fan-out; app output:%n%s", fanout.output()).hasSize(3);
                Map<Long, Long> committed = Map.copyOf(committedTotals(kafka, f.applicationId));
                assertThat(kafka.internalTopics(f.applicationId)).as("the job store's changelog").isNotEmpty();

                CliRun dry = CliRun.of(config, fanout, "replay", "fanout", "--from", "beginning", "--dry-run");
                assertThat(dry.code()).isZero();
                assertThat(dry.out()).contains("dry run: replay fanout from beginning: 3 records in 3 partitions")
                        .contains("would delete the internal topics of " + f.applicationId + ": " + f.applicationId + "-")
                        .contains("would wipe its local state " + stateDir.resolve(f.applicationId)).contains("nothing changed (--dry-run)");
                assertThat(committedTotals(kafka, f.applicationId)).as("a dry run moves nothing").isEqualTo(committed);
                assertThat(fanout.starts()).as("nor stops anything").isEqualTo(1);

                CliRun replay = CliRun.of(config, fanout, "replay", "fanout", "--from", "beginning", "--no-verify");
                assertThat(replay.code()).as(replay.out() + replay.err()).isZero();
                assertThat(replay.err()).contains("deleted the internal topics of " + f.applicationId + ": " + f.applicationId + "-")
                        .contains("wiped its local state " + stateDir.resolve(f.applicationId)).contains("caught up");
                assertThat(fanout.starts()).isEqualTo(2);

                f.readChunks(out, read, r -> r.size() >= 6, Duration.ofSeconds(120));
                assertThat(read).as("every pin fanned out again; app output:%n%s", fanout.output()).hasSize(6);
                for (long pin : pins) {
                    assertThat(StackFixtures.receiversOf(read, pin).values()).as("each receiver named once per fan-out")
                            .allSatisfy(sources -> assertThat(sources).hasSize(2));
                }
                assertThat(Files.exists(stateDir.resolve(f.applicationId))).as("state rebuilt by the restarted application").isTrue();
            }
        }
    }

    private static Map<Long, Long> committedTotals(KafkaGroups kafka, String group) {
        Map<Long, Long> out = new HashMap<>();
        kafka.committed(group).forEach((tp, offset) -> out.merge((long) tp.partition(), offset, Long::sum));
        return out;
    }
}
