package dev.pinfeed.materializer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.events.BoardPinsReordered;
import dev.pinfeed.events.PinDeleted;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each event type, through the registry, Kafka and the materializer's loop, lands in exactly the rows
 * and columns the layout names; read back with plain JDBC, not through the writer's own code.
 */
class CanonicalWritesIT extends FixtureIT {

    private final ObjectMapper json = new ObjectMapper();
    /** The rows of {@code sql} on the database of {@code id}'s shard, column → value. */
    private List<Map<String, Object>> rows(long id, String sql, Object... params) throws Exception {
        int shard = ShardedId.decode(id).shard();
        String db = MysqlShardMap.databaseName(shard);
        try (Connection c = f.sources.forShard(shard).getConnection(); PreparedStatement ps = c.prepareStatement(sql.replace("$db", db))) {
            for (int i = 0; i < params.length; i++) ps.setObject(i + 1, params[i]);
            List<Map<String, Object>> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                ResultSetMetaData meta = rs.getMetaData();
                while (rs.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int i = 1; i <= meta.getColumnCount(); i++) row.put(meta.getColumnLabel(i), rs.getObject(i));
                    out.add(row);
                }
            }
            return out;
        }
    }

    private JsonNode data(long id, String table) throws Exception {
        List<Map<String, Object>> r = rows(id, "SELECT data FROM $db." + table + " WHERE local_id = ?", ShardedId.decode(id).localId());
        assertThat(r).as(table + " row of " + id).hasSize(1);
        return json.readTree((String) r.get(0).get("data"));
    }

    @Test
    void everyEventLandsInTheRowsAndColumnsTheLayoutSays() throws Exception {
        long owner = f.freshId(ObjectType.USER);
        long liker = f.freshId(ObjectType.USER);
        long board = f.freshId(ObjectType.BOARD);
        long pin = f.freshId(ObjectType.PIN);
        long gone = f.freshId(ObjectType.PIN);
        long t = 1_780_000_000_000L;
        PinLiked like = Events.liked(liker, pin, t + 5);
        BoardPinsReordered reorder = Events.reordered(board, owner, t + 6, List.of(gone, pin));
        PinDeleted delete = Events.deleted(gone, board, owner, t + 7);
        f.publish(Events.user(owner, t), Events.user(liker, t + 1), Events.board(board, owner, t + 2), Events.pin(pin, board, owner, t + 3),
                Events.pin(gone, board, owner, t + 4), like, reorder, delete);
        f.run(f.settings(f.stack.uniqueName("canonical_writes")), f.handler(f.cache));

        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> data(gone, "pins").path("active").isBoolean()
                && !rows(liker, "SELECT * FROM $db.user_likes_pins WHERE user_id = ?", liker).isEmpty()
                && rows(board, "SELECT order_version FROM $db.boards WHERE local_id = ?", ShardedId.decode(board).localId()).get(0).get("order_version") != null);

        JsonNode user = data(owner, "users");
        assertThat(user.get("id").asLong()).isEqualTo(owner);
        assertThat(user.get("username").asText()).isEqualTo("u" + ShardedId.decode(owner).localId());
        assertThat(user.get("createdAt").asLong()).isEqualTo(t);

        JsonNode b = data(board, "boards");
        assertThat(b.get("ownerId").asLong()).isEqualTo(owner);
        assertThat(b.get("name").asText()).isEqualTo("board " + board);
        assertThat((byte[]) rows(board, "SELECT order_version FROM $db.boards WHERE local_id = ?", ShardedId.decode(board).localId()).get(0)
                .get("order_version")).isEqualTo(CanonicalLayout.version(t + 6, reorder.getEventId()));
        assertThat(rows(owner, "SELECT board_id, sequence FROM $db.user_has_boards WHERE user_id = ?", owner))
                .containsExactly(Map.of("board_id", board, "sequence", t + 2));

        JsonNode p = data(pin, "pins");
        assertThat(p.get("boardId").asLong()).isEqualTo(board);
        assertThat(p.get("authorId").asLong()).isEqualTo(owner);
        assertThat(p.get("details").asText()).isEqualTo("details of " + pin);
        assertThat(p.get("createdAt").asLong()).isEqualTo(t + 3);
        assertThat(p.has("active")).isFalse();
        JsonNode deleted = data(gone, "pins");
        assertThat(deleted.get("active").asBoolean(true)).as("soft delete").isFalse();
        assertThat(deleted.get("details").asText()).isEqualTo("details of " + gone);

        assertThat(rows(board, "SELECT pin_id, sequence, active, position FROM $db.board_has_pins WHERE board_id = ? ORDER BY sequence", board))
                .containsExactly(Map.of("pin_id", pin, "sequence", t + 3, "active", 1, "position", 1),
                        Map.of("pin_id", gone, "sequence", t + 4, "active", 0, "position", 0));
        assertThat(rows(owner, "SELECT pin_id, sequence, active FROM $db.user_has_pins WHERE user_id = ? ORDER BY sequence", owner))
                .containsExactly(Map.of("pin_id", pin, "sequence", t + 3, "active", 1), Map.of("pin_id", gone, "sequence", t + 4, "active", 0));

        byte[] version = CanonicalLayout.version(t + 5, like.getEventId());
        List<Map<String, Object>> liked = rows(liker, "SELECT pin_id, sequence, liked, version FROM $db.user_likes_pins WHERE user_id = ?", liker);
        assertThat(liked).hasSize(1);
        assertThat(liked.get(0)).containsEntry("pin_id", pin).containsEntry("sequence", t + 5).containsEntry("liked", 1);
        assertThat((byte[]) liked.get(0).get("version")).isEqualTo(version);
        List<Map<String, Object>> likedBy = rows(pin, "SELECT user_id, sequence, liked, version FROM $db.pin_liked_by_users WHERE pin_id = ?", pin);
        assertThat(likedBy).hasSize(1);
        assertThat(likedBy.get(0)).containsEntry("user_id", liker).containsEntry("sequence", t + 5).containsEntry("liked", 1);
        assertThat((byte[]) likedBy.get(0).get("version")).isEqualTo(version);

        assertThat(f.meters.find("materializer.rows.written").tag("table", "pins").counter()).isNotNull()
                .satisfies(c -> assertThat(c.count()).isGreaterThanOrEqualTo(3));
        assertThat(f.meters.find("materializer.batch.size").summary()).isNotNull();
    }

    @Test
    void commentsLandOnTheirPinsShardAndADeleteKeepsTheRowInactive() throws Exception {
        long owner = f.freshId(ObjectType.USER);
        long reader = f.freshId(ObjectType.USER);
        long board = f.freshId(ObjectType.BOARD);
        long pin = f.freshId(ObjectType.PIN);
        int shard = ShardedId.decode(pin).shard();
        long kept = ShardedId.compose(shard, ObjectType.COMMENT, ShardedId.decode(f.freshId(ObjectType.COMMENT)).localId());
        long gone = ShardedId.compose(shard, ObjectType.COMMENT, ShardedId.decode(f.freshId(ObjectType.COMMENT)).localId());
        long early = ShardedId.compose(shard, ObjectType.COMMENT, ShardedId.decode(f.freshId(ObjectType.COMMENT)).localId());
        long t = 1_780_000_000_000L;
        // early's delete is published before its create: the tombstone keeps it deleted.
        f.publish(Events.uncommented(early, pin, reader, t + 9), Events.user(owner, t), Events.user(reader, t + 1),
                Events.board(board, owner, t + 2), Events.pin(pin, board, owner, t + 3), Events.commented(kept, pin, reader, t + 4),
                Events.commented(gone, pin, owner, t + 5), Events.commented(early, pin, reader, t + 6), Events.uncommented(gone, pin, owner, t + 7));
        f.run(f.settings(f.stack.uniqueName("canonical_comments")), f.handler(f.cache));

        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> data(gone, "comments").path("active").isBoolean()
                && data(early, "comments").has("createdAt") && data(kept, "comments").has("createdAt"));

        JsonNode c = data(kept, "comments");
        assertThat(c.get("id").asLong()).isEqualTo(kept);
        assertThat(c.get("pinId").asLong()).isEqualTo(pin);
        assertThat(c.get("authorId").asLong()).isEqualTo(reader);
        assertThat(c.get("text").asText()).isEqualTo("comment " + kept);
        assertThat(c.get("createdAt").asLong()).isEqualTo(t + 4);
        assertThat(c.has("active")).isFalse();
        JsonNode deleted = data(gone, "comments");
        assertThat(deleted.get("active").asBoolean(true)).as("soft delete").isFalse();
        assertThat(deleted.get("text").asText()).isEqualTo("comment " + gone);
        JsonNode tombstoned = data(early, "comments");
        assertThat(tombstoned.get("active").asBoolean(true)).as("a create after its delete stays deleted").isFalse();
        assertThat(tombstoned.get("text").asText()).isEqualTo("comment " + early);

        assertThat(rows(pin, "SELECT comment_id, sequence, active FROM $db.pin_has_comments WHERE pin_id = ? ORDER BY sequence", pin))
                .containsExactly(Map.of("comment_id", kept, "sequence", t + 4, "active", 1),
                        Map.of("comment_id", gone, "sequence", t + 5, "active", 0),
                        Map.of("comment_id", early, "sequence", t + 6, "active", 0));
        assertThat(f.meters.find("materializer.rows.written").tag("table", "pin_has_comments").counter()).isNotNull();
    }
}
