package dev.pinfeed.operations.backup;

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
import dev.pinfeed.operations.replay.KafkaGroups;
import dev.pinfeed.operations.replay.LocalStackProcessors;
import dev.pinfeed.operations.verify.graph.GraphFixture;
import dev.pinfeed.processorruntime.KafkaClients;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole recovery of a store, as docs/operations.md describes it, on the follower graph: the real
 * graph-processor app applies follows; a backup; more follows; the graph's keys destroyed on every Redis
 * instance; {@code backup restore --store redis --replay} puts the snapshot back and replays the log from
 * the backup's time; the graph then answers exactly as the reference model of every event published,
 * and {@code verify graph} finds no difference.
 */
@ExtendWith(StackExtension.class)
class BackupReplayGraphIT {

    @TempDir Path home;
    @TempDir Path backups;

    @Test
    void aGraphDestroyedAfterItsBackupComesBackThroughRestoreAndReplayAndVerifiesClean(TestStack stack) throws Exception {
        try (GraphFixture f = new GraphFixture(stack); KafkaGroups kafka = new KafkaGroups(Admin.create(KafkaClients.admin(stack.config())))) {
            GraphFixture.ProcessorApp processor = f.processorApp(home, Map.of());
            LocalStack apps = processor.apps();
            PinfeedConfig config = processor.config();
            AtomicLong version = new AtomicLong(1_000);
            GraphFixture.Population population = f.population(30, 1, version);
            List<Long> users = population.users();
            List<long[]> boards = population.boards(); // board, owner
            List<GraphCommand> before = new ArrayList<>(population.boardsCreated());
            Random random = new Random(31);
            for (int i = 0; i < 1_500; i++) before.add(GraphFixture.randomCommand(random, users, boards, version));
            f.publishAll(before);
            try {
                apps.startServer(GraphProcessorMain.NAME);
                await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofSeconds(1)).until(() -> f.caughtUp(kafka));

                CliRun create = CliRun.of(config, null, "backup", "create", "--dir", backups.toString(), "--stores", "redis");
                assertThat(create.code()).as(create.out() + create.err()).isZero();
                String id;
                try (var dirs = Files.list(backups)) {
                    id = dirs.filter(Files::isDirectory).findFirst().orElseThrow().getFileName().toString();
                }

                List<GraphCommand> after = new ArrayList<>();
                for (int i = 0; i < 1_500; i++) after.add(GraphFixture.randomCommand(random, users, boards, version));
                f.publishAll(after);
                await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofSeconds(1)).until(() -> f.caughtUp(kafka));

                int destroyed = 0;
                for (String instance : f.instances) destroyed += f.flush(instance).size();
                assertThat(destroyed).as("the graph's keys, destroyed").isPositive();
                assertThat(CliRun.of(config, null, "verify", "graph").code()).as("verify sees the loss").isEqualTo(1);

                long started = System.nanoTime();
                CliRun restore = CliRun.of(config, new LocalStackProcessors(apps), "backup", "restore", id, "--dir", backups.toString(),
                        "--store", "redis", "--redis-keys", f.prefix + "*", "--replay");
                System.out.printf("[backup-replay-graph-it] %d keys destroyed; restore + replay + verify took %d ms%n", destroyed,
                        (System.nanoTime() - started) / 1_000_000);
                assertThat(restore.code()).as(restore.out() + restore.err()).isZero();

                await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1)).until(() -> f.caughtUp(kafka));
                GraphAssertions.assertSameGraph(f.model, f.live, users, boards.stream().limit(15).map(b -> b[0]).toList(), 7);
                CliRun verify = CliRun.of(config, new LocalStackProcessors(apps), "verify", "graph");
                assertThat(verify.code()).as(verify.out() + verify.err()).isZero();
            } finally {
                apps.stop(List.of(GraphProcessorMain.NAME));
            }
        }
    }
}
