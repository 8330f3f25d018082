package dev.pinfeed.operations.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.followergraph.GraphAssertions;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.graphprocessor.GraphProcessorMain;
import dev.pinfeed.infra.stack.LocalStack;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.operations.CliRun;
import dev.pinfeed.operations.verify.graph.GraphFixture;
import dev.pinfeed.processorruntime.KafkaClients;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./pinfeed replay graph --from beginning} against the real graph-processor app (its own process, started
 * by a launcher of the test's own on fresh topics, group and key prefix), while a producer keeps publishing
 * follows and unfollows, with the processor killed with kill -9 in the middle of the replay and started again:
 * the replay finishes, and the graph then answers every query exactly as the reference model of every event
 * published, and verifies clean (nothing lost, nothing applied twice).
 */
@ExtendWith(StackExtension.class)
class ReplayGraphIT {

    @TempDir Path home;

    @Test
    void aReplayFromTheBeginningWhileProducersWriteAndTheProcessorIsKilledLosesAndDuplicatesNothing(TestStack stack) throws Exception {
        try (GraphFixture f = new GraphFixture(stack); KafkaGroups kafka = new KafkaGroups(Admin.create(KafkaClients.admin(stack.config())))) {
            GraphFixture.ProcessorApp processor = f.processorApp(home, Map.of("processor.max-poll-records", "50"));
            LocalStack apps = processor.apps();
            PinfeedConfig config = processor.config();
            AtomicLong version = new AtomicLong(1_000);
            GraphFixture.Population population = f.population(40, 2, version);
            List<Long> users = population.users();
            List<long[]> boards = population.boards(); // board, owner
            List<GraphCommand> history = new ArrayList<>(population.boardsCreated());
            Random random = new Random(17);
            for (int i = 0; i < 4_000; i++) history.add(GraphFixture.randomCommand(random, users, boards, version));
            f.publishAll(history);
            try {
                apps.startServer(GraphProcessorMain.NAME);
                await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofSeconds(1)).until(() -> f.caughtUp(kafka));
                long before = ReplayDrill.committed(kafka, f.group);

                AtomicBoolean producing = new AtomicBoolean(true);
                CompletableFuture<Void> producer = CompletableFuture.runAsync(() -> {
                    Random r = new Random(23);
                    while (producing.get()) {
                        try {
                            synchronized (f) {
                                f.publish(GraphFixture.randomCommand(r, users, boards, version));
                            }
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                        ReplayDrill.sleep(20);
                    }
                });
                // The replay's own verification would race the producer: the graph is verified once it stopped.
                CompletableFuture<CliRun> replay = CompletableFuture.supplyAsync(() ->
                        CliRun.of(config, new LocalStackProcessors(apps), "replay", "graph", "--from", "beginning", "--no-verify"));

                long atKill = ReplayDrill.killMidReplay(kafka, f.group, before, apps, GraphProcessorMain.NAME);

                CliRun run = replay.get(10, TimeUnit.MINUTES);
                producing.set(false);
                producer.get(1, TimeUnit.MINUTES);
                assertThat(atKill).as("killed mid-replay: committed %d of %d", atKill, before).isLessThan(before);
                assertThat(run.code()).as(run.out() + run.err()).isZero();
                assertThat(run.err()).contains("moved [" + f.group + "]").contains("caught up");

                await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1)).until(() -> f.caughtUp(kafka));
                List<Long> someBoards = boards.stream().limit(20).map(b -> b[0]).toList();
                GraphAssertions.assertSameGraph(f.model, f.live, users, someBoards, 7);
                CliRun verify = CliRun.of(config, new LocalStackProcessors(apps), "verify", "graph");
                assertThat(verify.code()).as(verify.out()).isZero();
            } finally {
                apps.stop(List.of(GraphProcessorMain.NAME));
            }
        }
    }
}
