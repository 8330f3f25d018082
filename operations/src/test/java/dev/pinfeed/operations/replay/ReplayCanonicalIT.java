package dev.pinfeed.operations.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.canonicalstore.ComparableRows;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.infra.stack.LocalStack;
import dev.pinfeed.infra.stack.StackLayout;
import dev.pinfeed.infra.stacktestkit.ChildJvm;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.materializer.Fixture;
import dev.pinfeed.materializer.History;
import dev.pinfeed.materializer.MaterializerMain;
import dev.pinfeed.operations.CliRun;
import dev.pinfeed.processorruntime.KafkaClients;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./pinfeed replay canonical --from beginning} against the real materializer app (its own process, started
 * by a launcher of the test's own on fresh topics and a fresh group), while a producer keeps publishing, with the
 * materializer killed with kill -9 in the middle of the replay and started again (what ./pinfeed dev's watchdog
 * does): the replay finishes, its verification finds nothing lost and nothing duplicated, and neither does a last
 * verification once the producer stopped.
 */
@ExtendWith(StackExtension.class)
class ReplayCanonicalIT {

    /** No fewer differences for this long: nothing is being applied any more. */
    private static final Duration STALL = Duration.ofSeconds(120);
    /** A bound on the whole wait, far above what a backlog of this size takes on CI's box. */
    private static final Duration AT_MOST = Duration.ofMinutes(10);

    /** Kept when the test fails: the materializer's logs are there. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS) Path home;

    @Test
    void aReplayFromTheBeginningWhileProducersWriteAndTheProcessorIsKilledLosesAndDuplicatesNothing(TestStack stack) throws Exception {
        try (Fixture f = new Fixture(stack); KafkaGroups kafka = new KafkaGroups(Admin.create(KafkaClients.admin(stack.config())))) {
            String group = stack.uniqueName("canonical_replay");
            Map<String, String> overrides = Map.of("materializer.topic.users", f.topics.users(), "materializer.topic.boards", f.topics.boards(),
                    "materializer.topic.pins", f.topics.pins(), "materializer.topic.likes", f.topics.likes(),
                    "materializer.topic.comments", f.topics.comments(), "materializer.topic.interests", f.topics.interests(),
                    "materializer.group", group,
                    "materializer.admin.http", "127.0.0.1:" + ChildJvm.freePort(), "processor.max-poll-records", "50");
            PinfeedConfig config = f.config.withOverrides(overrides);
            LocalStack apps = new LocalStack(new StackLayout(StackLayout.discover().root(), home), config, line -> System.err.println("[apps] " + line),
                    overrides);
            Random random = new Random(5);
            List<History> published = new CopyOnWriteArrayList<>();
            for (int i = 0; i < 60; i++) {
                History h = History.mixed(f::freshId, random, 5, 8, 40, 60, 4);
                f.publishAll(h.events);
                published.add(h);
            }
            try {
                apps.startServer(MaterializerMain.NAME);
                // ~7 000 events in batches of 50, likes waiting for their pins across topics: on CI's loaded box, right after
                // the fault suite, this once took longer than 180 s. What fails the test is a stall, not a slow box.
                long applying = System.nanoTime();
                awaitAllApplied(f, published);
                System.err.printf("[replay] the first %d histories applied in %.1f s%n", published.size(), (System.nanoTime() - applying) / 1e9);
                long before = ReplayDrill.committed(kafka, group);

                AtomicBoolean producing = new AtomicBoolean(true);
                CompletableFuture<Void> producer = CompletableFuture.runAsync(() -> {
                    Random r = new Random(9);
                    while (producing.get()) {
                        History h = History.mixed(f::freshId, r, 2, 2, 6, 6, 1);
                        try {
                            f.publishAll(h.events);
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                        published.add(h);
                        // ~25 events every 300 ms: below what the materializer applies in batches of 50 on CI's box, so the
                        // backlog left when the producer stops stays bounded (at a history every 100 ms it outran the
                        // materializer for the whole replay and the last wait measured that backlog, not the replay).
                        ReplayDrill.sleep(300);
                    }
                });
                CompletableFuture<CliRun> replay = CompletableFuture.supplyAsync(() ->
                        CliRun.of(config, new LocalStackProcessors(apps), "replay", "canonical", "--from", "beginning"));

                // Moved back, then part way through the replay: kill -9, and start it again as the dev watchdog would.
                long atKill = ReplayDrill.killMidReplay(kafka, group, before, apps, MaterializerMain.NAME);

                CliRun run = replay.get(10, TimeUnit.MINUTES);
                producing.set(false);
                producer.get(1, TimeUnit.MINUTES);
                assertThat(atKill).as("killed mid-replay: committed %d of %d", atKill, before).isLessThan(before);
                assertThat(run.code()).as(run.out() + run.err()).isZero();
                assertThat(run.err()).contains("moved [" + group + "]").contains("caught up");
                assertThat(run.out()).contains("0 differences");

                awaitAllApplied(f, published);
                CliRun last = CliRun.of(config, new LocalStackProcessors(apps), "verify", "canonical");
                assertThat(last.code()).as(last.out()).isZero();
                assertThat(last.out()).contains("0 differences");
            } finally {
                apps.stop(List.of(MaterializerMain.NAME));
            }
        }
    }

    /** What the published histories' rows still lack or have wrong (nothing lost, nothing extra, nothing twice). */
    private static List<ComparableRows.Difference> differences(Fixture f, List<History> published) {
        List<Long> ids = new ArrayList<>();
        ComparableRows expected = new ComparableRows();
        for (History h : published) {
            ids.addAll(h.ids);
            ComparableRows e = h.expected();
            e.tableNames().forEach(t -> e.table(t).forEach((k, columns) -> expected.put(t, k, columns)));
        }
        return expected.diff(f.snapshot(ids, false), Set.of());
    }

    /**
     * Waits until every published history is applied. Fails when the differences stop shrinking for {@link #STALL} (nothing
     * applied: a wedged or dead materializer, records dead-lettered) or, at the latest, after {@link #AT_MOST}; the
     * failure names the first differences.
     */
    private static void awaitAllApplied(Fixture f, List<History> published) {
        long start = System.nanoTime();
        long lastProgress = start;
        int fewest = Integer.MAX_VALUE;
        while (true) {
            List<ComparableRows.Difference> d = differences(f, published);
            if (d.isEmpty()) return;
            long now = System.nanoTime();
            if (d.size() < fewest) {
                fewest = d.size();
                lastProgress = now;
            }
            boolean stalled = now - lastProgress > STALL.toNanos();
            if (stalled || now - start > AT_MOST.toNanos()) {
                throw new AssertionError("not every history applied after " + (now - start) / 1_000_000_000 + " s ("
                        + (stalled ? "no progress for " + STALL.toSeconds() + " s" : "the bound") + "): " + d.size() + " differences, first "
                        + d.stream().limit(5).toList());
            }
            ReplayDrill.sleep(1_000);
        }
    }
}
