package dev.pinfeed.feedworker.process;

import static dev.pinfeed.feedworker.Events.add;
import static dev.pinfeed.feedworker.Events.receiver;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.scoring.PinFacts;
import dev.pinfeed.infra.stacktestkit.ChildJvm;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.processorruntime.KafkaClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * kill -9 mid-backlog: FeedWorkerMain as a child JVM works off a backlog of 20 000 (receiver, pin)
 * entries in small batches, is killed with SIGKILL while it writes them, and restarted. Every expected
 * (user, pin) ends up in the pools exactly once — read as the stored rows (HBase scan of each user's
 * pools, orphans included), not through the store's de-duplicating reads.
 */
@ExtendWith(StackExtension.class)
class FeedWorkerCrashIT {

    private static final int RECEIVERS = 100;
    private static final int PINS = 200;
    private static final int CHUNKS_PER_BATCH = 10; // 1 000 entries per batch: the backlog takes 20 batches

    @Test
    void everyExpectedEntryIsInThePoolsExactlyOnceAfterAKillMidBacklog(TestStack stack) throws Exception {
        try (WorkerFixtures f = new WorkerFixtures(stack, 3)) {
            List<Long> receivers = LongStream.range(0, RECEIVERS).mapToObj(i -> f.user()).toList();
            long author = f.user();
            long board = f.board(author);
            long now = System.currentTimeMillis();
            Set<Long> expected = new HashSet<>();
            for (int i = 0; i < PINS; i++) {
                PinFacts p = f.unknownPin(board, author, now - i * 60_000L);
                expected.add(p.pinId());
                // Half the receivers get it through the author, half through the board: both pools fill.
                f.publish(add(p, now, receivers.stream().map(r -> receiver(r, r % 2 == 0 ? Source.FOLLOWED_USER : Source.FOLLOWED_BOARD)).toList()));
            }

            int port = ChildJvm.freePort();
            Map<String, String> props = new HashMap<>(f.childProperties(port));
            props.put("processor.max-poll-records", Integer.toString(CHUNKS_PER_BATCH));
            long watched = receivers.get(0); // gets every pin: his stored rows count the chunks written
            try (Admin admin = Admin.create(KafkaClients.admin(stack.config()))) {
                boolean caught = false;
                for (int attempt = 1; attempt <= 5 && !caught; attempt++) {
                    try (ChildJvm child = ChildJvm.start(FeedWorkerMain.class.getName(), props)) {
                        // Kill when a batch's entries are written but its offsets not yet committed.
                        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(10))
                                .until(() -> !child.isAlive() || f.pools.storedRows(watched).size() > committed(admin, f));
                        assertThat(child.isAlive()).as(child.output()).isTrue();
                        child.kill9();
                    }
                    long committed = committed(admin, f);
                    int written = f.pools.storedRows(watched).size();
                    int entries = stored(f, receivers).values().stream().mapToInt(List::size).sum();
                    System.out.printf("feed worker killed (attempt %d): %d of %d entries written, %d of %d chunks committed%n",
                            attempt, entries, RECEIVERS * PINS, committed, PINS);
                    assertThat(committed).as("killed mid-backlog").isLessThan(PINS);
                    caught = written > committed;
                }
                assertThat(caught).as("a kill caught written entries whose offsets were not committed").isTrue();
            }

            long t1 = System.nanoTime();
            try (ChildJvm second = ChildJvm.start(FeedWorkerMain.class.getName(), props)) {
                await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
                    assertThat(second.isAlive()).as(second.output()).isTrue();
                    assertThat(committedNow(f)).isEqualTo(PINS);
                });
                System.out.printf("restarted worker committed the rest in %d ms%n", (System.nanoTime() - t1) / 1_000_000);
                Map<Long, List<PoolEntry>> rows = stored(f, receivers);
                for (long r : receivers) {
                    List<Long> pins = rows.get(r).stream().map(PoolEntry::pinId).toList();
                    assertThat(pins).as("user %d: every pin, none twice", r).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(expected);
                    Source source = r % 2 == 0 ? Source.FOLLOWED_USER : Source.FOLLOWED_BOARD;
                    assertThat(rows.get(r)).allSatisfy(e -> assertThat(e.source()).isEqualTo(source));
                    assertThat(f.pools.all(r)).hasSize(PINS);
                }
            }
        }
    }

    /** Every user's stored entry rows. */
    private static Map<Long, List<PoolEntry>> stored(WorkerFixtures f, List<Long> users) {
        Map<Long, List<PoolEntry>> out = new HashMap<>();
        for (long u : users) out.put(u, new ArrayList<>(f.pools.storedRows(u)));
        return out;
    }

    /** Chunks whose offsets the worker's group committed. */
    private static long committed(Admin admin, WorkerFixtures f) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(f.group).partitionsToOffsetAndMetadata().get();
        return offsets.entrySet().stream().filter(e -> e.getKey().topic().equals(f.fanout) && e.getValue() != null)
                .mapToLong(e -> e.getValue().offset()).sum();
    }

    private static long committedNow(WorkerFixtures f) throws Exception {
        try (Admin admin = Admin.create(KafkaClients.admin(f.stack.config()))) {
            return committed(admin, f);
        }
    }
}
