package dev.pinfeed.materializer.oracle;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pinfeed.canonicalstore.CanonicalChange;
import dev.pinfeed.canonicalstore.CanonicalChange.DeactivateMapping;
import dev.pinfeed.canonicalstore.CanonicalChange.DeleteComment;
import dev.pinfeed.canonicalstore.CanonicalChange.DeletePin;
import dev.pinfeed.canonicalstore.CanonicalChange.PutLike;
import dev.pinfeed.canonicalstore.CanonicalChange.PutMapping;
import dev.pinfeed.canonicalstore.CanonicalChange.PutObject;
import dev.pinfeed.canonicalstore.CanonicalChange.ReorderBoard;
import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.canonicalstore.CanonicalLayout.Json;
import dev.pinfeed.canonicalstore.CanonicalLayout.Mapping;
import dev.pinfeed.canonicalstore.CanonicalRef;
import dev.pinfeed.canonicalstore.ComparableRows;
import dev.pinfeed.canonicalstore.mysql.CanonicalSnapshot;
import dev.pinfeed.materializer.EventPlanner;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The oracle: the canonical tables as plain maps, changed by the same {@link EventPlanner} plans under
 * the same rules — written from the rules, not from the SQL, so a mistake in either shows up as a
 * difference. Rules: objects are put if absent (a tombstone takes a later create's fields and stays
 * inactive); a pin's or comment's delete sets {@code active} false or leaves a tombstone; a mapping put sets the
 * create's sequence and keeps the flags; a deactivation clears {@code active}; likes and reorders are
 * last writer wins by (occurredAt, eventId); an object's {@code ts} is the time of the newest event
 * applied to it (a losing reorder does not count).
 */
public final class CanonicalOracle {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final class ObjectRow {
        ObjectNode data;
        byte[] orderVersion;
        long ts;

        void applied(long occurredAtMillis) {
            ts = Math.max(ts, occurredAtMillis);
        }
    }

    private static final class MappingRow {
        long sequence;
        Integer active;
        Integer position;
        Integer liked;
        byte[] version;
    }

    private record Pair(long from, long to) {}

    private final Map<String, Map<Long, ObjectRow>> objects = new TreeMap<>();
    private final Map<Mapping, Map<Pair, MappingRow>> mappings = new TreeMap<>();

    public boolean exists(CanonicalRef ref) {
        if (ref instanceof CanonicalRef.ObjectRow o) return objects.getOrDefault(o.table(), Map.of()).containsKey(o.id());
        CanonicalRef.MappingRow m = (CanonicalRef.MappingRow) ref;
        return mappings.getOrDefault(m.mapping(), Map.of()).containsKey(new Pair(m.from(), m.to()));
    }

    /**
     * Applies every plan whose needed rows exist, repeatedly, until none is left that can apply (the
     * order of the topics does not matter: every rule is order-free). Returns the plans that never
     * could: the live materializer dead-letters those as {@code missing-reference}.
     */
    public List<EventPlanner.Plan> applyAll(List<EventPlanner.Plan> plans) {
        List<EventPlanner.Plan> pending = new ArrayList<>(plans);
        boolean progress = true;
        while (progress && !pending.isEmpty()) {
            progress = false;
            List<EventPlanner.Plan> still = new ArrayList<>();
            for (EventPlanner.Plan p : pending) {
                if (p.needs().stream().allMatch(this::exists)) {
                    p.changes().forEach(this::apply);
                    progress = true;
                } else {
                    still.add(p);
                }
            }
            pending = still;
        }
        return pending;
    }

    public void apply(CanonicalChange change) {
        if (change instanceof PutObject o) {
            ObjectRow row = objects.computeIfAbsent(o.table(), t -> new TreeMap<>()).get(o.id());
            if (row == null) {
                row = new ObjectRow();
                row.data = parse(o.json());
                objects.get(o.table()).put(o.id(), row);
            } else if (!row.data.has(Json.CREATED_AT)) {
                row.data = parse(o.json()).put(Json.ACTIVE, false);
            }
            row.applied(o.occurredAtMillis());
        } else if (change instanceof DeletePin d) {
            softDelete(CanonicalLayout.PINS, d.pinId(), Json.pinTombstone(d.pinId(), d.boardId(), d.authorId()), d.occurredAtMillis());
        } else if (change instanceof DeleteComment d) {
            softDelete(CanonicalLayout.COMMENTS, d.commentId(), Json.commentTombstone(d.commentId(), d.pinId(), d.authorId()),
                    d.occurredAtMillis());
        } else if (change instanceof PutMapping m) {
            MappingRow row = mapping(m.mapping(), m.from(), m.to());
            if (row == null) {
                row = newMapping(m.mapping(), m.from(), m.to(), m.sequence());
                if (m.mapping().hasActive()) row.active = 1;
            }
            row.sequence = m.sequence();
        } else if (change instanceof DeactivateMapping m) {
            MappingRow row = mapping(m.mapping(), m.from(), m.to());
            if (row == null) row = newMapping(m.mapping(), m.from(), m.to(), m.sequence());
            row.active = 0;
        } else if (change instanceof PutLike l) {
            like(Mapping.USER_LIKES_PINS, l.userId(), l.pinId(), l);
            like(Mapping.PIN_LIKED_BY_USERS, l.pinId(), l.userId(), l);
        } else {
            reorder((ReorderBoard) change);
        }
    }

    /** {@code "active": false} on the object, or its tombstone when it has no row yet. */
    private void softDelete(String table, long id, String tombstone, long occurredAtMillis) {
        Map<Long, ObjectRow> rows = objects.computeIfAbsent(table, t -> new TreeMap<>());
        ObjectRow row = rows.get(id);
        if (row == null) {
            row = new ObjectRow();
            row.data = parse(tombstone);
            rows.put(id, row);
        } else {
            row.data.put(Json.ACTIVE, false);
        }
        row.applied(occurredAtMillis);
    }

    private void like(Mapping table, long from, long to, PutLike l) {
        MappingRow row = mapping(table, from, to);
        byte[] v = l.version();
        if (row == null) {
            row = newMapping(table, from, to, l.occurredAtMillis());
            row.liked = l.liked() ? 1 : 0;
            row.version = v;
        } else if (Arrays.compareUnsigned(v, row.version) > 0) {
            row.sequence = l.occurredAtMillis();
            row.liked = l.liked() ? 1 : 0;
            row.version = v;
        }
    }

    private void reorder(ReorderBoard r) {
        ObjectRow board = objects.getOrDefault(CanonicalLayout.BOARDS, Map.of()).get(r.boardId());
        if (board == null) return; // the materializer waits for the board; a model fed directly just skips
        byte[] v = r.version();
        if (board.orderVersion != null && Arrays.compareUnsigned(v, board.orderVersion) <= 0) return;
        board.orderVersion = v;
        board.applied(r.occurredAtMillis());
        mappings.getOrDefault(Mapping.BOARD_HAS_PINS, Map.of()).forEach((pair, row) -> {
            if (pair.from() == r.boardId()) {
                int i = r.pinIds().indexOf(pair.to());
                row.position = i < 0 ? null : i;
            }
        });
    }

    private MappingRow mapping(Mapping table, long from, long to) {
        return mappings.getOrDefault(table, Map.of()).get(new Pair(from, to));
    }

    private MappingRow newMapping(Mapping table, long from, long to, long sequence) {
        MappingRow row = new MappingRow();
        row.sequence = sequence;
        mappings.computeIfAbsent(table, t -> new LinkedHashMap<>()).put(new Pair(from, to), row);
        return row;
    }

    /** Every row, in the form {@link CanonicalSnapshot} reads from the store (without {@code ts}). */
    public ComparableRows rows() {
        return rows(false);
    }

    /** Every row, with each object's {@code ts} when {@code withTs} (as {@link CanonicalSnapshot#read} with it). */
    public ComparableRows rows(boolean withTs) {
        ComparableRows out = new ComparableRows();
        objects.forEach((table, rows) -> rows.forEach((id, row) -> {
            Map<String, Object> columns = new LinkedHashMap<>();
            columns.put(CanonicalLayout.DATA, row.data);
            if (table.equals(CanonicalLayout.BOARDS)) columns.put(CanonicalLayout.ORDER_VERSION, row.orderVersion);
            if (withTs) columns.put(CanonicalLayout.TS, CanonicalLayout.ts(row.ts));
            out.put(table, ComparableRows.objectKey(id), columns);
        }));
        mappings.forEach((table, rows) -> rows.forEach((pair, row) -> {
            Map<String, Object> columns = new LinkedHashMap<>();
            columns.put(CanonicalLayout.SEQUENCE, row.sequence);
            if (table.hasActive()) columns.put(CanonicalLayout.ACTIVE, row.active);
            if (table == Mapping.BOARD_HAS_PINS) columns.put(CanonicalLayout.POSITION, row.position);
            if (table.isLike()) {
                columns.put(CanonicalLayout.LIKED, row.liked);
                columns.put(CanonicalLayout.VERSION, row.version);
            }
            out.put(table.table(), ComparableRows.mappingKey(pair.from(), pair.to()), columns);
        }));
        return out;
    }

    private static ObjectNode parse(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + json, e);
        }
    }
}
