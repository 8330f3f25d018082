package dev.pinfeed.mysqlshards.query;

import static dev.pinfeed.mysqlshards.query.Condition.eq;
import static dev.pinfeed.mysqlshards.query.Condition.in;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The SQL each structured statement becomes, and that nothing but names and placeholders reaches it. */
class StatementsTest {

    @Test
    void selectRendersColumnsConditionsOrderLimitAndOffsetWithEveryValueBound() {
        List<Object> params = new ArrayList<>();
        String sql = Select.from("board_has_pins").columns("pin_id", "sequence")
                .where(eq("board_id", 42L), eq("active", 1))
                .orderBy(Order.desc("sequence"), Order.desc("pin_id")).limit(50).offset(150)
                .render("db03429", params);
        assertThat(sql).isEqualTo("SELECT pin_id, sequence FROM db03429.board_has_pins WHERE board_id = ? AND active = ?"
                + " ORDER BY sequence DESC, pin_id DESC LIMIT ? OFFSET ?");
        assertThat(params).containsExactly(42L, 1, 50, 150);
    }

    @Test
    void keysetAndInConditions() {
        List<Object> params = new ArrayList<>();
        String sql = Select.from("user_has_pins").columns("pin_id")
                .where(eq("user_id", 7L), Condition.beforeDesc("sequence", 100L, "pin_id", 9L), in("pin_id", List.of(1L, 2L)))
                .render("db00001", params);
        assertThat(sql).isEqualTo("SELECT pin_id FROM db00001.user_has_pins WHERE user_id = ?"
                + " AND (sequence < ? OR (sequence = ? AND pin_id < ?)) AND pin_id IN (?, ?)");
        assertThat(params).containsExactly(7L, 100L, 100L, 9L, 1L, 2L);
        assertThat(Select.from("t").columns("a").where(in("a", List.of())).render("db00000", new ArrayList<>()))
                .endsWith("WHERE 1 = 0");
    }

    @Test
    void countsPerGroupAndNotNullConditions() {
        List<Object> params = new ArrayList<>();
        String sql = Select.from("pin_liked_by_users").columns("pin_id").countAs("likes")
                .where(in("pin_id", List.of(1L, 2L)), eq("liked", 1), Condition.isNotNull("sequence")).groupBy("pin_id")
                .render("db00005", params);
        assertThat(sql).isEqualTo("SELECT pin_id, COUNT(*) AS likes FROM db00005.pin_liked_by_users"
                + " WHERE pin_id IN (?, ?) AND liked = ? AND sequence IS NOT NULL GROUP BY pin_id");
        assertThat(params).containsExactly(1L, 2L, 1);
        assertThatThrownBy(() -> Select.from("t").countAs("n; DROP TABLE t")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void upsertRulesForExistingRows() {
        List<Object> params = new ArrayList<>();
        String keep = Upsert.into("pins", "local_id", "data").row(5L, "{}").row(6L, "{\"a\":1}").keepExisting().render("db00002", params);
        assertThat(keep).isEqualTo("INSERT INTO db00002.pins (local_id, data) VALUES (?, ?), (?, ?) ON DUPLICATE KEY UPDATE local_id = local_id");
        assertThat(params).containsExactly(5L, "{}", 6L, "{\"a\":1}");

        String lww = Upsert.into("user_likes_pins", "user_id", "pin_id", "sequence", "liked", "version")
                .row(1L, 2L, 3L, 1, new byte[16]).newerWins("version", "liked", "sequence").render("db00003", new ArrayList<>());
        assertThat(lww).endsWith("ON DUPLICATE KEY UPDATE liked = IF(VALUES(version) > version, VALUES(liked), liked), "
                + "sequence = IF(VALUES(version) > version, VALUES(sequence), sequence), version = GREATEST(version, VALUES(version))");

        List<Object> p2 = new ArrayList<>();
        String set = Upsert.into("board_has_pins", "board_id", "pin_id", "sequence", "active").row(1L, 2L, 0L, 0).set("active", 0)
                .render("db00004", p2);
        assertThat(set).endsWith("ON DUPLICATE KEY UPDATE active = ?");
        assertThat(p2).containsExactly(1L, 2L, 0L, 0, 0);
    }

    @Test
    void upsertSetsAJsonFieldOrReplacesAPlaceholderOnAnExistingRow() {
        List<Object> params = new ArrayList<>();
        String soft = Upsert.into("pins", "local_id", "data").row(5L, "{\"active\":false}").jsonSet("data", "$.active", false)
                .render("db00002", params);
        assertThat(soft).endsWith("ON DUPLICATE KEY UPDATE data = JSON_SET(data, '$.active', JSON_EXTRACT(?, '$'))");
        assertThat(params).containsExactly(5L, "{\"active\":false}", "false");

        List<Object> p2 = new ArrayList<>();
        String fill = Upsert.into("pins", "local_id", "data").row(5L, "{}").replacePlaceholder("data", "$.createdAt", "$.active", false)
                .render("db00002", p2);
        assertThat(fill).endsWith("ON DUPLICATE KEY UPDATE data = IF(JSON_CONTAINS_PATH(data, 'one', '$.createdAt'), data, "
                + "JSON_SET(VALUES(data), '$.active', JSON_EXTRACT(?, '$')))");
        assertThat(p2).containsExactly(5L, "{}", "false");
        assertThatThrownBy(() -> Upsert.into("pins", "local_id", "data").replacePlaceholder("data", "$.a') OR 1 --", "$.b", 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void updateAndDeleteRequireConditions() {
        List<Object> params = new ArrayList<>();
        String sql = Update.table("pins").jsonSet("data", "$.active", false).where(eq("local_id", 3L)).render("db00005", params);
        assertThat(sql).isEqualTo("UPDATE db00005.pins SET data = JSON_SET(data, '$.active', JSON_EXTRACT(?, '$')) WHERE local_id = ?");
        assertThat(params).containsExactly("false", 3L);
        assertThatThrownBy(() -> Update.table("pins").set("data", "{}").render("db00005", new ArrayList<>()))
                .hasMessageContaining("without conditions");
        assertThatThrownBy(() -> Delete.from("pins").render("db00005", new ArrayList<>())).hasMessageContaining("without conditions");
    }

    /** Injection by construction: a name that is not a plain identifier never becomes SQL. */
    @ParameterizedTest
    @ValueSource(strings = {"pins; DROP TABLE users", "pins --", "a b", "`pins`", "Pins", "x'", "1abc", "", "users/**/"})
    void namesThatAreNotIdentifiersAreRefused(String name) {
        assertThatThrownBy(() -> Select.from(name)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Select.from("pins").columns(name)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> eq(name, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Order.desc(name)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Upsert.into("pins", name)).isInstanceOf(IllegalArgumentException.class);
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) { // JSON field names may be camelCase; nothing else
            assertThatThrownBy(() -> Update.table("pins").jsonSet("data", "$." + name, 1)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void hostileValuesAreParametersNotSql() {
        List<Object> params = new ArrayList<>();
        String hostile = "x' OR '1'='1'; DROP TABLE pins; --";
        String sql = Select.from("usernames").columns("user_id").where(eq("username", hostile)).render("db00006", params);
        assertThat(sql).doesNotContain(hostile).isEqualTo("SELECT user_id FROM db00006.usernames WHERE username = ?");
        assertThat(params).containsExactly(hostile);
    }

    @Test
    void shardingKeysNameExactlyTheirShards() {
        assertThat(ShardingKey.all().shards(4)).containsExactly(0, 1, 2, 3);
        assertThat(ShardingKey.one(2).shards(4)).containsExactly(2);
        assertThat(ShardingKey.of(List.of(3, 1, 3)).shards(4)).containsExactly(1, 3);
        assertThat(ShardingKey.range(1, 2).shards(4)).containsExactly(1, 2);
        assertThatThrownBy(() -> ShardingKey.one(9).shards(4)).hasMessageContaining("outside");
    }

    @Test
    void anInstantIsBoundAsSecondsWithMillisecondsSoNoDriverDropsTheFraction() {
        List<Object> params = new ArrayList<>();
        String sql = Upsert.into("pins", "local_id", "data", "ts").row(5L, "{}", java.time.Instant.ofEpochMilli(1_764_000_000_123L))
                .greatest("ts").render("db00002", params);
        assertThat(sql).isEqualTo("INSERT INTO db00002.pins (local_id, data, ts) VALUES (?, ?, FROM_UNIXTIME(?)) "
                + "ON DUPLICATE KEY UPDATE ts = GREATEST(ts, VALUES(ts))");
        assertThat(params).containsExactly(5L, "{}", new java.math.BigDecimal("1764000000.123"));
        List<Object> up = new ArrayList<>();
        assertThat(Update.table("boards").atLeast("ts", java.time.Instant.ofEpochMilli(2_000L)).where(Condition.eq("local_id", 1L))
                .render("db00001", up)).isEqualTo("UPDATE db00001.boards SET ts = GREATEST(ts, FROM_UNIXTIME(?)) WHERE local_id = ?");
        assertThat(up).containsExactly(new java.math.BigDecimal("2.000"), 1L);
    }
}
