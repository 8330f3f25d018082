package dev.pinfeed.canonicalstore.mysql;

import static dev.pinfeed.mysqlshards.query.Condition.in;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.canonicalstore.CanonicalIds;
import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.canonicalstore.CanonicalLayout.Mapping;
import dev.pinfeed.canonicalstore.ComparableRows;
import dev.pinfeed.idallocator.InvalidIdException;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.mysqlshards.query.Row;
import dev.pinfeed.mysqlshards.query.Select;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads the canonical rows of given objects from the shards: each object's row in its table, and
 * every mapping row whose from-object is one of them (so rows nobody expected show up as extra).
 * Rows of other objects are never read: tests and tools share the store.
 */
public final class CanonicalSnapshot {

    /** Ids per IN list: well under MySQL's placeholder limit, and short statements. */
    private static final int CHUNK = 500;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<Mapping, ObjectType> FROM_TYPE = Map.of(
            Mapping.USER_HAS_BOARDS, ObjectType.USER, Mapping.BOARD_HAS_PINS, ObjectType.BOARD, Mapping.USER_HAS_PINS, ObjectType.USER,
            Mapping.USER_LIKES_PINS, ObjectType.USER, Mapping.PIN_LIKED_BY_USERS, ObjectType.PIN, Mapping.PIN_HAS_COMMENTS, ObjectType.PIN,
            Mapping.PIN_HAS_REPINS, ObjectType.PIN, Mapping.INTEREST_HAS_PINS, ObjectType.INTEREST);

    private CanonicalSnapshot() {}

    /** The rows of {@code ids} (users, boards, pins, comments and interests; other ids are ignored); with {@code withTs} also each object's {@code ts}. */
    public static ComparableRows read(ShardedDb db, Collection<Long> ids, boolean withTs) {
        Map<ObjectType, Map<Integer, List<Long>>> byType = new HashMap<>();
        for (long id : new TreeSet<>(ids)) {
            ShardedId d;
            try {
                d = ShardedId.decode(id);
            } catch (InvalidIdException e) {
                continue;
            }
            if (d.shard() >= db.shardCount()) continue;
            byType.computeIfAbsent(d.type(), t -> new TreeMap<>()).computeIfAbsent(d.shard(), s -> new ArrayList<>()).add(id);
        }
        ComparableRows out = new ComparableRows();
        for (ObjectType type : List.of(ObjectType.USER, ObjectType.BOARD, ObjectType.PIN, ObjectType.COMMENT, ObjectType.INTEREST)) {
            Map<Integer, List<Long>> shards = byType.getOrDefault(type, Map.of());
            readObjects(db, CanonicalIds.tableOf(type), shards, withTs, out);
        }
        for (Mapping m : Mapping.values()) readMappings(db, m, byType.getOrDefault(FROM_TYPE.get(m), Map.of()), out);
        return out;
    }

    private static void readObjects(ShardedDb db, String table, Map<Integer, List<Long>> shards, boolean withTs, ComparableRows out) {
        boolean board = table.equals(CanonicalLayout.BOARDS);
        List<String> columns = new ArrayList<>(List.of(CanonicalLayout.LOCAL_ID, CanonicalLayout.DATA));
        if (board) columns.add(CanonicalLayout.ORDER_VERSION);
        if (withTs) columns.add(CanonicalLayout.TS);
        for (Map<Integer, List<Long>> chunk : chunks(shards)) {
            Map<Integer, Select> queries = new HashMap<>();
            Map<Integer, Map<Long, Long>> idByLocal = new HashMap<>();
            chunk.forEach((shard, idList) -> {
                Map<Long, Long> locals = new HashMap<>();
                for (long id : idList) locals.put(CanonicalIds.localOf(id), id);
                idByLocal.put(shard, locals);
                queries.put(shard, Select.from(table).columns(columns.toArray(String[]::new)).where(in(CanonicalLayout.LOCAL_ID, locals.keySet())));
            });
            db.selectEach(queries).forEach((shard, rows) -> {
                for (Row r : rows) {
                    Map<String, Object> values = new LinkedHashMap<>();
                    values.put(CanonicalLayout.DATA, parse(r.getString(CanonicalLayout.DATA)));
                    if (board) values.put(CanonicalLayout.ORDER_VERSION, r.get(CanonicalLayout.ORDER_VERSION));
                    if (withTs) values.put(CanonicalLayout.TS, instant(r.get(CanonicalLayout.TS)));
                    out.put(table, ComparableRows.objectKey(idByLocal.get(shard).get(r.getLong(CanonicalLayout.LOCAL_ID))), values);
                }
            });
        }
    }

    private static void readMappings(ShardedDb db, Mapping m, Map<Integer, List<Long>> shards, ComparableRows out) {
        List<String> columns = new ArrayList<>(List.of(m.from(), m.to(), CanonicalLayout.SEQUENCE));
        if (m.hasActive()) columns.add(CanonicalLayout.ACTIVE);
        if (m == Mapping.BOARD_HAS_PINS) columns.add(CanonicalLayout.POSITION);
        if (m.isLike()) columns.addAll(List.of(CanonicalLayout.LIKED, CanonicalLayout.VERSION));
        for (Map<Integer, List<Long>> chunk : chunks(shards)) {
            Map<Integer, Select> queries = new HashMap<>();
            chunk.forEach((shard, froms) -> queries.put(shard, Select.from(m.table()).columns(columns.toArray(String[]::new)).where(in(m.from(), froms))));
            db.selectEach(queries).values().forEach(rows -> {
                for (Row r : rows) {
                    Map<String, Object> values = new LinkedHashMap<>();
                    for (String c : columns.subList(2, columns.size())) values.put(c, r.get(c));
                    out.put(m.table(), ComparableRows.mappingKey(r.getLong(m.from()), r.getLong(m.to())), values);
                }
            });
        }
    }

    /** The shards' id lists cut so no IN list exceeds {@link #CHUNK}. */
    private static List<Map<Integer, List<Long>>> chunks(Map<Integer, List<Long>> shards) {
        List<Map<Integer, List<Long>>> out = new ArrayList<>();
        for (int from = 0; ; from += CHUNK) {
            Map<Integer, List<Long>> part = new TreeMap<>();
            for (Map.Entry<Integer, List<Long>> e : shards.entrySet()) {
                List<Long> ids = e.getValue();
                if (from < ids.size()) part.put(e.getKey(), ids.subList(from, Math.min(ids.size(), from + CHUNK)));
            }
            if (part.isEmpty()) return out;
            out.add(part);
        }
    }

    /** A TIMESTAMP as the driver returns it, as an instant (what the layout's {@code ts} values are). */
    private static Object instant(Object ts) {
        if (ts instanceof Timestamp t) return t.toInstant();
        if (ts instanceof LocalDateTime l) return Timestamp.valueOf(l).toInstant();
        return ts;
    }

    private static Object parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            return json; // not JSON at all: compared as text, so it shows as a difference
        }
    }
}
