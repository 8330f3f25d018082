package dev.pinfeed.loadharness;

import static dev.pinfeed.mysqlshards.query.Condition.in;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pinfeed.canonicalstore.CanonicalCacheKeys;
import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.canonicalstore.CanonicalLayout.Json;
import dev.pinfeed.canonicalstore.CanonicalLayout.Mapping;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.Delete;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.mysqlshards.query.Upsert;
import dev.pinfeed.redisshards.RedisShardMap;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import redis.clients.jedis.RedisClient;

/**
 * Canonical rows for the benchmarks, written in batches (one transaction per shard host) with the
 * query API, as the materializer lays them out ({@link CanonicalLayout}); {@link #remove} deletes
 * them again. Benchmark data, not a writer: no cache is invalidated.
 */
final class BenchSeed {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final ShardedDb db;
    /** Queued rows by shard and table (with the upsert's column list and rule), written as multi-row upserts. */
    private final Map<Integer, Map<String, List<Object[]>>> pending = new TreeMap<>();
    private final Map<String, Map<Integer, Set<Long>>> written = new HashMap<>();

    /** Local ids a run may use without meeting another run's: this many from {@link #freshLocalBase}. */
    static final long FRESH_IDS = 262_144L;

    /**
     * The first of {@link #FRESH_IDS} local ids no earlier run of a harness used (a slot per second,
     * wrapping after ~28 hours), above the ids the allocator hands out on the local stack.
     */
    static long freshLocalBase() {
        return (1L << 35) + (System.currentTimeMillis() / 1000 % 100_000L) * FRESH_IDS;
    }

    BenchSeed(ShardedDb db) {
        this.db = db;
    }

    void user(long id, long createdAt) {
        object(CanonicalLayout.USERS, id, base(id, createdAt).put(Json.USERNAME, "bench" + ShardedId.decode(id).localId()));
    }

    void board(long id, long owner, long createdAt) {
        object(CanonicalLayout.BOARDS, id, base(id, createdAt).put(Json.OWNER_ID, owner).put(Json.NAME, "bench board"));
        mapping(Mapping.USER_HAS_BOARDS, owner, id, createdAt);
    }

    void pin(long id, long board, long author, long createdAt) {
        object(CanonicalLayout.PINS, id, base(id, createdAt).put(Json.BOARD_ID, board).put(Json.AUTHOR_ID, author)
                .put(Json.DETAILS, "a benchmark pin with a few words of text").put(Json.LINK, "https://example.com/" + id));
        mapping(Mapping.BOARD_HAS_PINS, board, id, createdAt);
        mapping(Mapping.USER_HAS_PINS, author, id, createdAt);
    }

    /** Writes what was queued: one transaction per host, a batch per statement shape. */
    void flush() {
        Map<String, List<Integer>> byHost = new TreeMap<>();
        pending.keySet().forEach(s -> byHost.computeIfAbsent(db.hostOf(s), h -> new ArrayList<>()).add(s));
        byHost.forEach((host, shards) -> db.inTransaction(host, w -> {
            for (int s : shards) {
                for (Map.Entry<String, List<Object[]>> t : pending.get(s).entrySet()) {
                    for (int i = 0; i < t.getValue().size(); i += 500) {
                        Upsert u = upsert(t.getKey());
                        t.getValue().subList(i, Math.min(t.getValue().size(), i + 500)).forEach(u::row);
                        w.add(s, u);
                    }
                }
            }
            return null;
        }));
        pending.clear();
    }

    /** Deletes every row this seed wrote. */
    void remove() {
        written.forEach((table, byShard) -> byShard.forEach((shard, keySet) -> {
            List<Long> keys = new ArrayList<>(keySet);
            String column = table.equals(CanonicalLayout.USERS) || table.equals(CanonicalLayout.BOARDS) || table.equals(CanonicalLayout.PINS)
                    ? CanonicalLayout.LOCAL_ID : fromColumn(table);
            for (int i = 0; i < keys.size(); i += 1000) {
                db.write(shard, Delete.from(table).where(in(column, keys.subList(i, Math.min(keys.size(), i + 1000)))));
            }
        }));
        written.clear();
    }

    private static String fromColumn(String table) {
        for (Mapping m : Mapping.values()) if (m.table().equals(table)) return m.from();
        throw new IllegalArgumentException(table);
    }

    private void object(String table, long id, ObjectNode json) {
        ShardedId s = ShardedId.decode(id);
        add(s.shard(), table, s.localId(), new Object[] {s.localId(), json.toString()});
    }

    private void mapping(Mapping m, long from, long to, long sequence) {
        add(ShardedId.decode(from).shard(), m.table(), from, new Object[] {from, to, sequence});
    }

    /** An empty upsert of {@code table}: objects overwrite their JSON, mappings keep an existing row. */
    private static Upsert upsert(String table) {
        for (Mapping m : Mapping.values()) {
            if (m.table().equals(table)) return Upsert.into(table, m.from(), m.to(), CanonicalLayout.SEQUENCE).keepExisting();
        }
        return Upsert.into(table, CanonicalLayout.LOCAL_ID, CanonicalLayout.DATA).overwrite(CanonicalLayout.DATA);
    }

    private void add(int shard, String table, long key, Object[] row) {
        pending.computeIfAbsent(shard, s -> new TreeMap<>()).computeIfAbsent(table, t -> new ArrayList<>()).add(row);
        written.computeIfAbsent(table, t -> new TreeMap<>()).computeIfAbsent(shard, s -> new LinkedHashSet<>()).add(key);
    }

    /** Deletes every row this seed wrote and the cache keys reads filled for {@code cacheIds}, and says so. */
    void removeWithCached(Map<String, RedisClient> redis, RedisShardMap shards, Collection<Long> cacheIds) {
        long deleted = evictCached(redis, shards, cacheIds);
        remove();
        System.err.println("cleanup: deleted " + deleted + " cache keys and the seeded rows");
    }

    /** A plain JDBC connection to {@code host}'s master, for a raw baseline beside the query API. */
    static Connection rawConnection(PinfeedConfig config, ShardDataSources sources, String host) {
        try {
            return DriverManager.getConnection(config.mysqlJdbcUrl(sources.master(host)), config.mysqlUser(), config.mysqlPassword());
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Deletes every canonical cache key of these objects (users, boards, pins) that reads filled; returns how many existed. */
    static long evictCached(Map<String, RedisClient> redis, RedisShardMap shards, Collection<Long> ids) {
        long deleted = 0;
        for (long objectId : ids) {
            List<String> keys = List.of(CanonicalCacheKeys.version(objectId), CanonicalCacheKeys.pin(objectId), CanonicalCacheKeys.pinLikes(objectId),
                    CanonicalCacheKeys.user(objectId), CanonicalCacheKeys.board(objectId), CanonicalCacheKeys.boardPins(objectId, "newest"),
                    CanonicalCacheKeys.boardPins(objectId, "custom"));
            deleted += redis.get(shards.instanceOf(CanonicalCacheKeys.shardOf(objectId))).del(keys.toArray(String[]::new));
        }
        return deleted;
    }

    private static ObjectNode base(long id, long createdAt) {
        return MAPPER.createObjectNode().put(Json.ID, id).put(Json.CREATED_AT, createdAt);
    }

}
