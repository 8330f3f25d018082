package dev.pinfeed.mysqlshards.query;

import static dev.pinfeed.mysqlshards.query.Condition.eq;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.Condition;
import dev.pinfeed.mysqlshards.query.Count;
import dev.pinfeed.mysqlshards.query.Order;
import dev.pinfeed.mysqlshards.query.Row;
import dev.pinfeed.mysqlshards.query.Select;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.mysqlshards.query.ShardingKey;
import dev.pinfeed.mysqlshards.query.Update;
import dev.pinfeed.mysqlshards.query.Upsert;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Seed 003's sharded query API against the stack's real shard hosts, on the canonical tables under
 * fresh ids. Shards 7 and 100 live on mysql001, 3000 and 4095 on mysql002.
 */
@ExtendWith(StackExtension.class)
class ShardedDbIT {

    private static ShardDataSources sources;
    private static ShardedDb db;
    private static TestStack stack;

    @BeforeAll
    static void open(TestStack s) {
        stack = s;
        sources = ShardDataSources.from(s.config(), "sharded-db-it", 4);
        db = new ShardedDb(sources);
    }

    @AfterAll
    static void close() {
        db.close();
        sources.close();
    }

    private static List<Long> longs(List<Row> rows, String column) {
        return rows.stream().map(r -> r.getLong(column)).toList();
    }

    @Test
    void oneShardPagesWithOffsetAndWithAKeysetInTheSameOrder() {
        long board = stack.freshId();
        db.inTransaction(db.hostOf(7), w -> {
            for (long pin = 1; pin <= 60; pin++) {
                w.add(7, Upsert.into("board_has_pins", "board_id", "pin_id", "sequence").row(board, pin, 1000 + pin / 2).keepExisting());
            }
            return null;
        });
        Select newest = Select.from("board_has_pins").columns("pin_id", "sequence").where(eq("board_id", board), eq("active", 1))
                .orderBy(Order.desc("sequence"), Order.desc("pin_id"));
        List<Long> all = longs(db.select(newest.limit(100), ShardingKey.one(7)), "pin_id");
        assertThat(all).hasSize(60).startsWith(60L, 59L, 58L, 57L);

        List<Row> page3 = db.select(Select.from("board_has_pins").columns("pin_id", "sequence").where(eq("board_id", board))
                .orderBy(Order.desc("sequence"), Order.desc("pin_id")).limit(20).offset(40), ShardingKey.one(7));
        assertThat(longs(page3, "pin_id")).isEqualTo(all.subList(40, 60));

        Row last = db.select(Select.from("board_has_pins").columns("pin_id", "sequence").where(eq("board_id", board))
                .orderBy(Order.desc("sequence"), Order.desc("pin_id")).limit(20), ShardingKey.one(7)).get(19);
        List<Row> next = db.select(Select.from("board_has_pins").columns("pin_id", "sequence")
                .where(eq("board_id", board), Condition.beforeDesc("sequence", last.getLong("sequence"), "pin_id", last.getLong("pin_id")))
                .orderBy(Order.desc("sequence"), Order.desc("pin_id")).limit(20), ShardingKey.one(7));
        assertThat(longs(next, "pin_id")).isEqualTo(all.subList(20, 40));
    }

    @Test
    void aScatterQueryRunsOnExactlyTheNamedShardsAndMergesInOrder() {
        long user = stack.freshId();
        int[] shards = {7, 100, 3000, 4095};
        for (int i = 0; i < shards.length; i++) {
            int shard = shards[i];
            long seq = 10L * (i + 1);
            db.write(shard, Upsert.into("user_has_pins", "user_id", "pin_id", "sequence").row(user, seq, seq).row(user, seq + 1, seq + 1).keepExisting());
        }
        Select q = Select.from("user_has_pins").columns("pin_id", "sequence").where(eq("user_id", user)).orderBy(Order.desc("sequence")).limit(3);
        List<Row> top = db.select(q, ShardingKey.all());
        assertThat(longs(top, "pin_id")).containsExactly(41L, 40L, 31L);
        assertThat(top.get(0).shard()).isEqualTo(4095);
        assertThat(top.get(2).shard()).isEqualTo(3000);
        assertThat(longs(db.select(q, ShardingKey.range(0, 200)), "pin_id")).containsExactly(21L, 20L, 11L);
        assertThat(longs(db.select(q, ShardingKey.of(List.of(7, 4095))), "pin_id")).containsExactly(41L, 40L, 11L);
        assertThat(db.count(Count.from("user_has_pins").where(eq("user_id", user)), ShardingKey.all())).isEqualTo(8);
        assertThat(db.count(Count.from("user_has_pins").where(eq("user_id", user)), ShardingKey.one(100))).isEqualTo(2);
        assertThatThrownBy(() -> db.select(Select.from("user_has_pins").columns("pin_id").limit(5).offset(5), ShardingKey.all()))
                .hasMessageContaining("one shard");
    }

    @Test
    void lastWriterWinsByVersionWhateverTheOrderOfArrival() {
        long user = stack.freshId();
        long pin = stack.freshId();
        Upsert newer = like(user, pin, 1, version(2000, 2));
        Upsert older = like(user, pin, 0, version(1000, 1));
        db.write(3000, newer);
        db.write(3000, older);
        db.write(3000, newer);
        Row row = db.select(Select.from("user_likes_pins").columns("liked", "version").where(eq("user_id", user), eq("pin_id", pin)),
                ShardingKey.one(3000)).get(0);
        assertThat(row.getBoolean("liked")).isTrue();
        assertThat(row.getBytes("version")).isEqualTo(version(2000, 2));
    }

    private static Upsert like(long user, long pin, int liked, byte[] version) {
        return Upsert.into("user_likes_pins", "user_id", "pin_id", "sequence", "liked", "version").row(user, pin, 5L, liked, version)
                .newerWins("version", "liked", "sequence");
    }

    private static byte[] version(long at, long id) {
        return ByteBuffer.allocate(16).putLong(at).putLong(id).array();
    }

    @Test
    void hostileValuesAreStoredAsTheyAreAndNothingElseHappens() {
        long pin = stack.freshId();
        String hostile = "{\"details\": \"x'); DROP TABLE pins; -- \\\" OR 1=1\"}";
        db.write(100, Upsert.into("pins", "local_id", "data").row(pin, hostile).keepExisting());
        db.write(100, Update.table("pins").jsonSet("data", "$.active", false).where(eq("local_id", pin)));
        Row row = db.select(Select.from("pins").columns("data").where(eq("local_id", pin)), ShardingKey.one(100)).get(0);
        assertThat(row.getString("data")).contains("DROP TABLE pins").contains("\"active\": false");
        assertThat(db.count(Count.from("pins").where(eq("local_id", pin)), ShardingKey.one(100))).isEqualTo(1);
    }

    @Test
    void selectEachRunsEachShardsOwnQueryAndTellsTheRowsApart() {
        long a = stack.freshId();
        long b = stack.freshId();
        db.write(7, Upsert.into("users", "local_id", "data").row(a, "{}").keepExisting());
        db.write(3000, Upsert.into("users", "local_id", "data").row(b, "{}").keepExisting());
        // Each shard asks for both ids, but each id exists on one shard only: rows come back by shard.
        java.util.Map<Integer, List<Row>> rows = db.selectEach(java.util.Map.of(
                7, Select.from("users").columns("local_id").where(Condition.in("local_id", List.of(a, b))),
                100, Select.from("users").columns("local_id").where(eq("local_id", a)),
                3000, Select.from("users").columns("local_id").where(Condition.in("local_id", List.of(a, b)))));
        assertThat(rows).containsOnlyKeys(7, 3000);
        assertThat(longs(rows.get(7), "local_id")).containsExactly(a);
        assertThat(longs(rows.get(3000), "local_id")).containsExactly(b);
        assertThatThrownBy(() -> db.selectEach(java.util.Map.of(7, Select.from("users").columns("local_id"),
                8, Select.from("users").columns("data")))).hasMessageContaining("same columns");
    }

    @Test
    void selectEachOfRunsSeveralOrderedAndLimitedQueriesPerShardEachKeepingItsOwnTopRows() {
        long a = stack.freshId(), b = stack.freshId(), c = stack.freshId();
        for (long pin = 1; pin <= 5; pin++) {
            long p = pin;
            db.write(7, Upsert.into("board_has_pins", "board_id", "pin_id", "sequence").row(a, p, 100 + p).keepExisting());
            db.write(7, Upsert.into("board_has_pins", "board_id", "pin_id", "sequence").row(b, p, 200 - p).keepExisting());
            db.write(3000, Upsert.into("board_has_pins", "board_id", "pin_id", "sequence").row(c, p, 300 + p).keepExisting());
        }
        java.util.function.LongFunction<Select> newestTwo = board -> Select.from("board_has_pins").columns("board_id", "pin_id")
                .where(eq("board_id", board)).orderBy(Order.desc("sequence")).limit(2);
        java.util.Map<Integer, List<Row>> rows = db.selectEachOf(java.util.Map.of(
                7, List.of(newestTwo.apply(a), newestTwo.apply(b)), 100, List.of(), 3000, List.of(newestTwo.apply(c))));

        assertThat(rows).containsOnlyKeys(7, 3000);
        java.util.function.LongFunction<List<Long>> pinsOf = board -> rows.values().stream().flatMap(List::stream)
                .filter(r -> r.getLong("board_id") == board).map(r -> r.getLong("pin_id")).sorted().toList();
        assertThat(pinsOf.apply(a)).containsExactly(4L, 5L);
        assertThat(pinsOf.apply(b)).containsExactly(1L, 2L);
        assertThat(pinsOf.apply(c)).containsExactly(4L, 5L);
        assertThatThrownBy(() -> db.selectEachOf(java.util.Map.of(7, List.of(Select.from("board_has_pins").columns("pin_id")
                .where(eq("board_id", a)).orderBy(Order.desc("sequence")))))).hasMessageContaining("only with a limit");
        assertThatThrownBy(() -> db.selectEach(java.util.Map.of(7, newestTwo.apply(a)))).hasMessageContaining("no order, limit");
    }

    @Test
    void aPlaceholderRowTakesTheRealRowsJsonAndKeepsItsMark() {
        long pin = stack.freshId();
        Upsert create = Upsert.into("pins", "local_id", "data").row(pin, "{\"createdAt\": 5, \"details\": \"real\"}")
                .replacePlaceholder("data", "$.createdAt", "$.active", false);
        // The tombstone first (no createdAt), then the create: the create's fields, still inactive.
        db.write(100, Upsert.into("pins", "local_id", "data").row(pin, "{\"active\": false}").jsonSet("data", "$.active", false));
        db.write(100, create);
        String data = db.select(Select.from("pins").columns("data").where(eq("local_id", pin)), ShardingKey.one(100)).get(0).getString("data");
        assertThat(data).contains("\"details\": \"real\"").contains("\"active\": false");
        db.write(100, create); // a replay keeps it
        assertThat(db.select(Select.from("pins").columns("data").where(eq("local_id", pin)), ShardingKey.one(100)).get(0).getString("data"))
                .isEqualTo(data);
    }

    @Test
    void aHostTransactionIsAllOrNothing() {
        long board = stack.freshId();
        assertThatThrownBy(() -> db.inTransaction(db.hostOf(7), w -> {
            w.add(7, Upsert.into("board_has_pins", "board_id", "pin_id", "sequence").row(board, 1L, 1L).keepExisting());
            w.execute(7, Upsert.into("board_has_pins", "board_id", "pin_id", "sequence").row(board, 2L, null).keepExisting()); // NOT NULL
            return null;
        })).isInstanceOf(RuntimeException.class);
        assertThat(db.count(Count.from("board_has_pins").where(eq("board_id", board)), ShardingKey.one(7))).isZero();
        assertThatThrownBy(() -> db.inTransaction(db.hostOf(7), w -> w.execute(3000, Update.table("pins").set("data", "{}")
                .where(eq("local_id", 1L))))).hasMessageContaining("lives on");
    }
}
