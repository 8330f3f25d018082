package dev.pinfeed.canonicalstore.mysql;

import static dev.pinfeed.mysqlshards.query.Condition.and;
import static dev.pinfeed.mysqlshards.query.Condition.beforeDesc;
import static dev.pinfeed.mysqlshards.query.Condition.eq;
import static dev.pinfeed.mysqlshards.query.Condition.gt;
import static dev.pinfeed.mysqlshards.query.Condition.in;
import static dev.pinfeed.mysqlshards.query.Condition.isNotNull;
import static dev.pinfeed.mysqlshards.query.Condition.isNull;
import static dev.pinfeed.mysqlshards.query.Condition.or;

import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.canonicalstore.CanonicalLayout.Mapping;
import dev.pinfeed.canonicalstore.UsernameShards;
import dev.pinfeed.canonicalstore.reads.BoardPinOrder;
import dev.pinfeed.canonicalstore.reads.CanonicalRowReads;
import dev.pinfeed.canonicalstore.reads.ListEntry;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.mysqlshards.query.Condition;
import dev.pinfeed.mysqlshards.query.Count;
import dev.pinfeed.mysqlshards.query.Order;
import dev.pinfeed.mysqlshards.query.Row;
import dev.pinfeed.mysqlshards.query.Select;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.mysqlshards.query.ShardingKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The canonical store's reads over the logical MySQL shards, every statement through seed 003's
 * query API and routed to exactly the shard(s) it needs: an object or a mapping list to the shard its
 * (from-)id names, a username to the index shard {@link UsernameShards} picks, a batch of objects to
 * the shards of its ids (one statement per shard, a host's shards in one round trip, hosts in parallel).
 */
public final class MysqlCanonicalReads extends CanonicalRowReads {

    private static final String COUNT = "n";

    private final ShardedDb db;

    public MysqlCanonicalReads(ShardedDb db) {
        this.db = db;
    }

    @Override
    public Map<Long, String> objects(ObjectType type, Collection<Long> ids) {
        String table = switch (type) {
            case USER -> CanonicalLayout.USERS;
            case BOARD -> CanonicalLayout.BOARDS;
            case PIN -> CanonicalLayout.PINS;
            case COMMENT -> CanonicalLayout.COMMENTS;
            case INTEREST -> CanonicalLayout.INTERESTS;
        };
        Map<Long, String> out = new HashMap<>();
        Map<Integer, Map<Long, Long>> idsByShard = byShard(ids, type);
        Map<Integer, Select> perShard = new TreeMap<>();
        idsByShard.forEach((shard, byLocal) -> perShard.put(shard, Select.from(table)
                .columns(CanonicalLayout.LOCAL_ID, CanonicalLayout.DATA).where(in(CanonicalLayout.LOCAL_ID, byLocal.keySet()))));
        db.selectEach(perShard).forEach((shard, rows) -> {
            for (Row r : rows) out.put(idsByShard.get(shard).get(r.getLong(CanonicalLayout.LOCAL_ID)), r.getString(CanonicalLayout.DATA));
        });
        return out;
    }

    @Override
    public Map<Long, PinRow> pins(Collection<Long> pinIds) {
        Map<Long, String> json = objects(ObjectType.PIN, pinIds);
        Map<Long, Long> likes = liveCounts(Mapping.PIN_LIKED_BY_USERS, json.keySet());
        Map<Long, Long> comments = liveCounts(Mapping.PIN_HAS_COMMENTS, json.keySet());
        Map<Long, Long> repins = liveCounts(Mapping.PIN_HAS_REPINS, json.keySet());
        Map<Long, PinRow> out = new HashMap<>();
        json.forEach((id, data) -> out.put(id, new PinRow(data, likes.getOrDefault(id, 0L), comments.getOrDefault(id, 0L),
                repins.getOrDefault(id, 0L))));
        return out;
    }

    /** The live rows of {@code mapping} from each pin of {@code pinIds} (its shard), counted per pin; pins without any are absent. */
    private Map<Long, Long> liveCounts(Mapping m, Collection<Long> pinIds) {
        Map<Long, Long> out = new HashMap<>();
        Map<Integer, Select> perShard = new TreeMap<>();
        byShard(pinIds, ObjectType.PIN).forEach((shard, byLocal) -> perShard.put(shard, Select.from(m.table()).columns(m.from())
                .countAs(COUNT).where(of(m, byLocal.values())).groupBy(m.from())));
        db.selectEach(perShard).values().forEach(rows -> rows.forEach(r -> out.put(r.getLong(m.from()), r.getLong(COUNT))));
        return out;
    }

    @Override
    public List<ListEntry> boardPins(long boardId, BoardPinOrder order, ListEntry after, int offset, int limit) {
        Mapping m = Mapping.BOARD_HAS_PINS;
        boolean custom = order == BoardPinOrder.CUSTOM;
        Select q = Select.from(m.table()).columns(m.to(), CanonicalLayout.SEQUENCE, CanonicalLayout.POSITION)
                .where(eq(m.from(), boardId), eq(CanonicalLayout.ACTIVE, 1)).limit(limit).offset(offset);
        // MySQL sorts NULL first ascending: the pins the owner's order does not list come first, as BoardPinOrder.CUSTOM says.
        if (custom) q.orderBy(Order.asc(CanonicalLayout.POSITION), Order.desc(CanonicalLayout.SEQUENCE), Order.desc(m.to()));
        else q.orderBy(Order.desc(CanonicalLayout.SEQUENCE), Order.desc(m.to()));
        if (after != null) q.where(custom ? afterInCustomOrder(after, m.to()) : beforeDesc(CanonicalLayout.SEQUENCE, after.sequence(), m.to(), after.id()));
        List<ListEntry> out = new ArrayList<>();
        for (Row r : db.select(q, ShardingKey.one(shardOf(boardId)))) {
            Object position = r.get(CanonicalLayout.POSITION);
            out.add(new ListEntry(r.getLong(m.to()), r.getLong(CanonicalLayout.SEQUENCE), position == null ? null : ((Number) position).intValue()));
        }
        return out;
    }

    /** Strictly after {@code after} in (position ascending, NULL first; sequence, id descending). */
    private static Condition afterInCustomOrder(ListEntry after, String idColumn) {
        Condition sameBucketLater = beforeDesc(CanonicalLayout.SEQUENCE, after.sequence(), idColumn, after.id());
        if (after.position() == null) return or(and(isNull(CanonicalLayout.POSITION), sameBucketLater), isNotNull(CanonicalLayout.POSITION));
        return or(gt(CanonicalLayout.POSITION, after.position()), and(eq(CanonicalLayout.POSITION, after.position()), sameBucketLater));
    }

    @Override
    public List<ListEntry> newestFirst(Mapping mapping, long fromId, ListEntry after, int limit) {
        Select q = Select.from(mapping.table()).columns(mapping.to(), CanonicalLayout.SEQUENCE)
                .where(of(mapping, fromId))
                .orderBy(Order.desc(CanonicalLayout.SEQUENCE), Order.desc(mapping.to())).limit(limit);
        if (after != null) q.where(beforeDesc(CanonicalLayout.SEQUENCE, after.sequence(), mapping.to(), after.id()));
        return db.select(q, ShardingKey.one(shardOf(fromId))).stream()
                .map(r -> ListEntry.newest(r.getLong(mapping.to()), r.getLong(CanonicalLayout.SEQUENCE))).toList();
    }

    /** Each list its own query on its id's shard, all in one statement per host ({@link ShardedDb#selectEachOf}). */
    @Override
    public Map<Long, List<ListEntry>> newestFirstOfEach(Mapping mapping, Collection<Long> fromIds, int limit) {
        Map<Long, List<ListEntry>> out = new LinkedHashMap<>();
        Map<Integer, List<Select>> perShard = new TreeMap<>();
        for (Long fromId : fromIds) {
            if (out.putIfAbsent(fromId, new ArrayList<>()) != null) continue;
            perShard.computeIfAbsent(shardOf(fromId), s -> new ArrayList<>()).add(Select.from(mapping.table())
                    .columns(mapping.from(), mapping.to(), CanonicalLayout.SEQUENCE).where(of(mapping, fromId))
                    .orderBy(Order.desc(CanonicalLayout.SEQUENCE), Order.desc(mapping.to())).limit(limit));
        }
        db.selectEachOf(perShard).values().forEach(rows -> rows.forEach(r ->
                out.get(r.getLong(mapping.from())).add(ListEntry.newest(r.getLong(mapping.to()), r.getLong(CanonicalLayout.SEQUENCE)))));
        Comparator<ListEntry> newestFirst = Comparator.comparingLong(ListEntry::sequence).thenComparingLong(ListEntry::id).reversed();
        out.values().forEach(list -> list.sort(newestFirst));
        return out;
    }

    @Override
    public long count(Mapping mapping, long fromId) {
        return db.count(Count.from(mapping.table()).where(of(mapping, fromId)), ShardingKey.one(shardOf(fromId)));
    }

    @Override
    public OptionalLong userIdByUsername(String username) {
        List<Row> rows = db.select(Select.from(CanonicalLayout.USERNAMES).columns(CanonicalLayout.USER_ID)
                .where(eq(CanonicalLayout.USERNAME, username)), ShardingKey.one(UsernameShards.shardOf(username)));
        return rows.isEmpty() ? OptionalLong.empty() : OptionalLong.of(rows.get(0).getLong(CanonicalLayout.USER_ID));
    }

    /** The live rows of {@code mapping} from {@code fromId}. */
    private static Condition[] of(Mapping mapping, long fromId) {
        return live(mapping, eq(mapping.from(), fromId));
    }

    /** The live rows of {@code mapping} from any of {@code fromIds}. */
    private static Condition[] of(Mapping mapping, Collection<Long> fromIds) {
        return live(mapping, in(mapping.from(), fromIds));
    }

    /** {@code from} narrowed to live rows: active mappings of pins and comments, likes not undone; boards are never deleted. */
    private static Condition[] live(Mapping mapping, Condition from) {
        return switch (mapping) {
            case BOARD_HAS_PINS, USER_HAS_PINS, PIN_HAS_COMMENTS, PIN_HAS_REPINS, INTEREST_HAS_PINS -> new Condition[] {from, eq(CanonicalLayout.ACTIVE, 1)};
            case USER_LIKES_PINS, PIN_LIKED_BY_USERS -> new Condition[] {from, eq(CanonicalLayout.LIKED, 1)};
            case USER_HAS_BOARDS -> new Condition[] {from};
        };
    }

    private static int shardOf(long id) {
        return ShardedId.decode(id).shard();
    }

    /** Ids of {@code type} by shard, each shard's by local id. */
    private static Map<Integer, Map<Long, Long>> byShard(Collection<Long> ids, ObjectType type) {
        Map<Integer, Map<Long, Long>> out = new TreeMap<>();
        for (long id : new LinkedHashSet<>(ids)) {
            ShardedId s = ShardedId.decode(id);
            if (s.type() != type) throw new IllegalArgumentException(id + " is a " + s.typeName() + " id, not a " + type.typeName() + " id");
            out.computeIfAbsent(s.shard(), k -> new HashMap<>()).put(s.localId(), id);
        }
        return out;
    }
}
