package dev.pinfeed.operations.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.canonicalstore.CanonicalIds;
import dev.pinfeed.canonicalstore.ComparableRows;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.materializer.Fixture;
import dev.pinfeed.materializer.History;
import dev.pinfeed.materializer.MaterializerMain;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.operations.CliRun;
import dev.pinfeed.operations.InProcessProcessor;
import dev.pinfeed.processorruntime.KafkaClients;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code ./pinfeed replay canonical --from beginning --to TIME}: the records of the range are applied again by the
 * materializer's own code inside the command (the lost rows come back exactly), while the materializer's group keeps
 * its offsets and the materializer is held stopped meanwhile, then started again.
 */
@ExtendWith(StackExtension.class)
class BoundedReplayIT {

    @Test
    void aRangeIsAppliedAgainBesideTheGroupWhichKeepsItsOffsets(TestStack stack) throws Exception {
        try (Fixture f = new Fixture(stack); KafkaGroups kafka = new KafkaGroups(Admin.create(KafkaClients.admin(stack.config())))) {
            String group = stack.uniqueName("canonical_range");
            Random random = new Random(3);
            History h = History.mixed(f::freshId, random, 5, 6, 25, 30, 4);
            try (InProcessProcessor materializer = new InProcessProcessor(MaterializerMain.NAME,
                    () -> f.run(f.settings(group), f.handler(f.cache))).start()) {
                f.publishAll(h.events);
                ComparableRows expected = h.expected();
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).until(() -> History.matches(f, h, expected).get());
                ComparableRows before = f.snapshot(h.ids, true);
                Map<TopicPartition, Long> committed = kafka.committed(group);

                // Every row of the history lost (the tables of its objects emptied on their shards).
                for (long id : h.ids) {
                    int shard = CanonicalIds.shardOf(id);
                    try (Connection c = f.sources.forShard(shard).getConnection(); Statement st = c.createStatement()) {
                        String db = MysqlShardMap.databaseName(shard);
                        for (String table : new String[] {"users", "boards", "pins", "comments", "interests"}) {
                            st.executeUpdate("DELETE FROM " + db + "." + table + " WHERE local_id = " + CanonicalIds.localOf(id));
                        }
                        for (String mapping : new String[] {"user_has_boards WHERE user_id", "user_has_pins WHERE user_id",
                                "board_has_pins WHERE board_id", "user_likes_pins WHERE user_id", "pin_liked_by_users WHERE pin_id",
                                "pin_has_comments WHERE pin_id", "pin_has_repins WHERE pin_id", "interest_has_pins WHERE interest_id"}) {
                            st.executeUpdate("DELETE FROM " + db + "." + mapping + " = " + id);
                        }
                    }
                }
                assertThat(f.snapshot(h.ids, true).size()).isZero();

                PinfeedConfig config = f.config.withOverrides(Map.of("materializer.group", group, "materializer.topic.users", f.topics.users(),
                        "materializer.topic.boards", f.topics.boards(), "materializer.topic.pins", f.topics.pins(),
                        "materializer.topic.likes", f.topics.likes(), "materializer.topic.comments", f.topics.comments(),
                        "materializer.topic.interests", f.topics.interests()));
                int starts = materializer.starts();
                CliRun range = CliRun.of(config, materializer, "replay", "canonical", "--from", "beginning", "--to", Instant.now().toString());
                assertThat(range.code()).as(range.out() + range.err()).isZero();
                assertThat(range.out()).contains("replay canonical from beginning: " + h.events.size() + " records").endsWith("0 differences\n");
                assertThat(f.snapshot(h.ids, true)).as("every row back, ts included").isEqualTo(before);
                assertThat(kafka.committed(group)).as("the group keeps its offsets").isEqualTo(committed);
                assertThat(materializer.starts()).as("held stopped, started again").isEqualTo(starts + 1);
            }
        }
    }
}
