package dev.pinfeed.operations.verify.canonical;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.canonicalstore.CanonicalIds;
import dev.pinfeed.canonicalstore.ComparableRows;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.materializer.Fixture;
import dev.pinfeed.materializer.History;
import dev.pinfeed.materializer.MaterializerMain;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.operations.CliRun;
import dev.pinfeed.operations.InProcessProcessor;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code ./pinfeed verify canonical} against a materializer run on fresh topics: clean after the history is
 * applied; each kind of damage (a row deleted, a JSON altered, a ts altered, a mapping row deleted, an extra
 * mapping row) named exactly; {@code --repair} holds the materializer, writes the fix, verifies clean, and the
 * rows are again what they were, {@code ts} included.
 */
@ExtendWith(StackExtension.class)
class VerifyCanonicalIT {

    @Test
    void verifyNamesEachDamageAndRepairRestoresExactlyTheRows(TestStack stack) throws Exception {
        try (Fixture f = new Fixture(stack)) {
            String group = stack.uniqueName("canonical_verify");
            Random random = new Random(11);
            History h = History.mixed(f::freshId, random, 6, 8, 30, 40, 6);
            try (InProcessProcessor materializer = new InProcessProcessor(MaterializerMain.NAME,
                    () -> f.run(f.settings(group), f.handler(f.cache))).start()) {
                f.publishAll(h.shuffled(random));
                ComparableRows expected = h.expected();
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).until(() -> History.matches(f, h, expected).get());
                PinfeedConfig config = f.config.withOverrides(Map.of("materializer.group", group));
                String[] verify = {"verify", "canonical", "--users-topic", f.topics.users(), "--boards-topic", f.topics.boards(),
                        "--pins-topic", f.topics.pins(), "--likes-topic", f.topics.likes(), "--comments-topic", f.topics.comments(),
                        "--interests-topic", f.topics.interests()};
                CliRun clean = CliRun.of(config, materializer, verify);
                assertThat(clean.code()).as(clean.out()).isZero();
                assertThat(clean.out()).contains("0 differences");
                ComparableRows before = f.snapshot(h.ids, true);

                long user = h.ids.stream().filter(id -> ShardedId.decode(id).type() == ObjectType.USER).findFirst().orElseThrow();
                long pin = h.ids.stream().filter(id -> ShardedId.decode(id).type() == ObjectType.PIN).findFirst().orElseThrow();
                long board = h.ids.stream().filter(id -> ShardedId.decode(id).type() == ObjectType.BOARD).findFirst().orElseThrow();
                String mapping = before.table("board_has_pins").keySet().iterator().next();
                long mappedBoard = Long.parseLong(mapping.split("/")[0]);
                long mappedPin = Long.parseLong(mapping.split("/")[1]);
                long strayBoard = f.freshId(ObjectType.BOARD);
                sql(f, user, "DELETE FROM $db.users WHERE local_id = ?", CanonicalIds.localOf(user));
                sql(f, pin, "UPDATE $db.pins SET data = JSON_SET(data, '$.details', 'tampered') WHERE local_id = ?", CanonicalIds.localOf(pin));
                sql(f, board, "UPDATE $db.boards SET ts = ts + INTERVAL 1 SECOND WHERE local_id = ?", CanonicalIds.localOf(board));
                sql(f, mappedBoard, "DELETE FROM $db.board_has_pins WHERE board_id = ? AND pin_id = ?", mappedBoard, mappedPin);
                sql(f, user, "INSERT INTO $db.user_has_boards (user_id, board_id, sequence) VALUES (?, ?, 1)", user, strayBoard);

                CliRun damaged = CliRun.of(config, materializer, verify);
                assertThat(damaged.code()).isEqualTo(1);
                assertThat(damaged.out()).contains("missing users " + user + ":")
                        .contains("differs pins " + pin + ": data expected")
                        .contains("differs boards " + board + ": ts expected")
                        .contains("missing board_has_pins " + mapping + ":")
                        .contains("extra   user_has_boards " + user + "/" + strayBoard + ":")
                        .contains("5 differences");

                int startsBefore = materializer.starts();
                String[] repair = new String[verify.length + 1];
                System.arraycopy(verify, 0, repair, 0, verify.length);
                repair[verify.length] = "--repair";
                CliRun repaired = CliRun.of(config, materializer, repair);
                assertThat(repaired.code()).as(repaired.out() + repaired.err()).isZero();
                assertThat(repaired.out()).contains("repaired: 5 rows written or deleted").endsWith("0 differences\n");
                assertThat(materializer.starts()).as("held stopped, then started again").isEqualTo(startsBefore + 1);
                assertThat(f.snapshot(h.ids, true)).as("every row as before the damage, ts included").isEqualTo(before);
                assertThat(f.snapshot(List.of(user), false).table("user_has_boards")).doesNotContainKey(user + "/" + strayBoard);
                assertThat(CliRun.of(config, materializer, verify).code()).isZero();
            }
        }
    }

    /** One statement on the shard of {@code placedBy}, {@code $db} standing for its database. */
    private static void sql(Fixture f, long placedBy, String statement, Object... params) throws Exception {
        int shard = CanonicalIds.shardOf(placedBy);
        try (Connection c = f.sources.forShard(shard).getConnection();
             PreparedStatement ps = c.prepareStatement(statement.replace("$db", MysqlShardMap.databaseName(shard)))) {
            for (int i = 0; i < params.length; i++) ps.setObject(i + 1, params[i]);
            assertThat(ps.executeUpdate()).as(statement).isEqualTo(1);
        }
    }
}
