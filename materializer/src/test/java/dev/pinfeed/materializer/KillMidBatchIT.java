package dev.pinfeed.materializer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.canonicalstore.ComparableRows;
import dev.pinfeed.infra.stacktestkit.ChildJvm;
import dev.pinfeed.processorruntime.KafkaClients;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * The materializer ({@link MaterializerMain}) as a child JVM is killed with SIGKILL while it works
 * through a large backlog, then started again on the same group: every expected row is there exactly
 * once (row counts per table, likes state, flags and positions), nothing is missing or extra.
 */
class KillMidBatchIT extends FixtureIT {

    @Test
    void aKillNineMidBacklogLosesAndDuplicatesNothing() throws Exception {
        Random random = new Random(9);
        History h = History.mixed(f::freshId, random, 60, 100, 1500, 2500, 40);
        ComparableRows expected = h.expected();
        f.publishAll(h.shuffled(random));
        long total = h.events.size();

        String group = f.stack.uniqueName("canonical_kill");
        Map<String, String> props = new HashMap<>();
        props.put("materializer.group", group);
        props.put("materializer.topic.users", f.topics.users());
        props.put("materializer.topic.boards", f.topics.boards());
        props.put("materializer.topic.pins", f.topics.pins());
        props.put("materializer.topic.likes", f.topics.likes());
        props.put("materializer.topic.comments", f.topics.comments());
        props.put("materializer.topic.interests", f.topics.interests());
        props.put("materializer.admin.http", "127.0.0.1:" + ChildJvm.freePort());
        props.put("processor.max-poll-records", "200");

        long atKill;
        try (ChildJvm first = ChildJvm.start(MaterializerMain.class.getName(), props)) {
            try {
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(50))
                        .failFast(() -> !first.isAlive()).until(() -> committed(group) >= total / 4);
            } catch (RuntimeException e) {
                throw new AssertionError("the first materializer did not get a quarter through; its output:\n" + first.output(), e);
            }
            first.kill9();
            atKill = committed(group);
        }
        assertThat(atKill).as("killed mid-backlog").isBetween(total / 4, total - 1);

        props.put("materializer.admin.http", "127.0.0.1:" + ChildJvm.freePort());
        try (ChildJvm second = ChildJvm.start(MaterializerMain.class.getName(), props)) {
            try {
                await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500)).failFast(() -> !second.isAlive())
                        .until(() -> committed(group) == total);
            } catch (RuntimeException e) {
                throw new AssertionError("the restarted materializer did not finish; its output:\n" + second.output(), e);
            }
            ComparableRows stored = f.snapshot(h.ids, false);
            assertThat(stored.diff(expected, java.util.Set.of())).as("rows differing from the model; child output:%n%s", second.output()).isEmpty();
            for (String table : expected.tableNames()) {
                assertThat(stored.table(table)).as(table + " rows, each once").hasSameSizeAs(expected.table(table));
            }
            assertThat(stored.table("pins")).hasSize(1500);
            assertThat(stored.table("user_likes_pins")).hasSameSizeAs(stored.table("pin_liked_by_users")).isNotEmpty();
            second.stop(Duration.ofSeconds(30));
        }
    }

    /** Records of the topics the group has committed past. */
    private long committed(String group) throws Exception {
        try (Admin admin = Admin.create(KafkaClients.admin(f.config))) {
            Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
            long n = 0;
            for (OffsetAndMetadata o : offsets.values()) if (o != null) n += o.offset();
            return n;
        }
    }

}
