package dev.pinfeed.canonicalstore.mysql;

import static dev.pinfeed.config.Futures.join;

import static dev.pinfeed.canonicalstore.CanonicalLayout.ACTIVE;
import static dev.pinfeed.canonicalstore.CanonicalLayout.BOARDS;
import static dev.pinfeed.canonicalstore.CanonicalLayout.COMMENTS;
import static dev.pinfeed.canonicalstore.CanonicalLayout.DATA;
import static dev.pinfeed.canonicalstore.CanonicalLayout.LIKED;
import static dev.pinfeed.canonicalstore.CanonicalLayout.LOCAL_ID;
import static dev.pinfeed.canonicalstore.CanonicalLayout.ORDER_VERSION;
import static dev.pinfeed.canonicalstore.CanonicalLayout.PINS;
import static dev.pinfeed.canonicalstore.CanonicalLayout.POSITION;
import static dev.pinfeed.canonicalstore.CanonicalLayout.SEQUENCE;
import static dev.pinfeed.canonicalstore.CanonicalLayout.TS;
import static dev.pinfeed.canonicalstore.CanonicalLayout.VERSION;
import static dev.pinfeed.mysqlshards.query.Condition.eq;
import static dev.pinfeed.mysqlshards.query.Condition.in;
import static dev.pinfeed.mysqlshards.query.Condition.isNull;
import static dev.pinfeed.mysqlshards.query.Condition.lt;
import static dev.pinfeed.mysqlshards.query.Condition.or;

import dev.pinfeed.canonicalstore.CanonicalChange;
import dev.pinfeed.canonicalstore.CanonicalChange.DeactivateMapping;
import dev.pinfeed.canonicalstore.CanonicalChange.DeleteComment;
import dev.pinfeed.canonicalstore.CanonicalChange.DeletePin;
import dev.pinfeed.canonicalstore.CanonicalChange.PutLike;
import dev.pinfeed.canonicalstore.CanonicalChange.PutMapping;
import dev.pinfeed.canonicalstore.CanonicalChange.PutObject;
import dev.pinfeed.canonicalstore.CanonicalChange.ReorderBoard;
import dev.pinfeed.canonicalstore.CanonicalIds;
import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.canonicalstore.CanonicalLayout.Json;
import dev.pinfeed.canonicalstore.CanonicalLayout.Mapping;
import dev.pinfeed.canonicalstore.CanonicalRef;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.mysqlshards.query.HostWriter;
import dev.pinfeed.mysqlshards.query.Row;
import dev.pinfeed.mysqlshards.query.Select;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.mysqlshards.query.ShardingKey;
import dev.pinfeed.mysqlshards.query.Update;
import dev.pinfeed.mysqlshards.query.Upsert;
import dev.pinfeed.mysqlshards.query.Write;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Applies {@link CanonicalChange}s to the logical MySQL shards through the sharded query API: the
 * changes of a batch grouped by host, one transaction per host, hosts in parallel. A host that is
 * down fails only its own transaction ({@link Outcome#failedHosts}); the others commit. Every
 * statement is an idempotent upsert (or a version-guarded update), so a failed batch is simply
 * applied again.
 */
public final class MysqlCanonicalWriter implements AutoCloseable {

    private final ShardedDb db;
    private final ExecutorService pool;

    public MysqlCanonicalWriter(ShardedDb db) {
        this.db = db;
        AtomicInteger n = new AtomicInteger();
        this.pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "canonical-writer-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** What a batch did: the hosts whose transaction did not commit, and the rows written per table on the others. */
    public record Outcome(Map<String, StoreUnavailableException> failedHosts, Map<String, Long> rowsByTable) {}

    /** Which refs exist; refs on a host that could not be asked are in neither set but under {@code failedHosts}. */
    public record Existing(Set<CanonicalRef> found, Map<String, StoreUnavailableException> failedHosts) {}

    public int shardCount() {
        return db.shardCount();
    }

    public String hostOf(int shard) {
        return db.hostOf(shard);
    }

    /** The hosts a change writes on. */
    public Set<String> hostsOf(CanonicalChange change) {
        Set<String> out = new HashSet<>();
        for (int shard : change.shards()) out.add(db.hostOf(shard));
        return out;
    }

    // ---------------------------------------------------------------- writes

    /** One statement of a change, on one shard. */
    private record Piece(int shard, String table, int rows, Write write, ReorderBoard reorder) {}

    /**
     * Writes {@code changes}: per host one transaction, hosts in parallel. A host that cannot be
     * reached (or times out, deadlocks) is reported, not thrown; any other failure is a bug and is
     * thrown once every host has finished.
     */
    public Outcome apply(List<CanonicalChange> changes) {
        Map<String, List<Piece>> byHost = new LinkedHashMap<>();
        for (CanonicalChange c : changes) {
            for (Piece p : pieces(c)) byHost.computeIfAbsent(db.hostOf(p.shard()), h -> new ArrayList<>()).add(p);
        }
        Map<String, Future<Map<String, Long>>> running = new LinkedHashMap<>();
        byHost.forEach((host, pieces) -> running.put(host, pool.submit(() -> db.inTransaction(host, w -> write(w, pieces)))));
        Map<String, StoreUnavailableException> failed = new TreeMap<>();
        Map<String, Long> rows = new TreeMap<>();
        RuntimeException bug = null;
        for (Map.Entry<String, Future<Map<String, Long>>> e : running.entrySet()) {
            try {
                join(e.getValue()).forEach((table, n) -> rows.merge(table, n, Long::sum));
            } catch (StoreUnavailableException down) {
                failed.put(e.getKey(), down);
            } catch (RuntimeException other) {
                if (bug == null) bug = other;
            }
        }
        if (bug != null) throw bug;
        return new Outcome(failed, rows);
    }

    private static List<Piece> pieces(CanonicalChange change) {
        if (change instanceof PutObject o) {
            return List.of(row(o.id(), o.table(), Upsert.into(o.table(), LOCAL_ID, DATA, TS).row(CanonicalIds.localOf(o.id()), o.json(),
                    CanonicalLayout.ts(o.occurredAtMillis())).replacePlaceholder(DATA, Json.path(Json.CREATED_AT), Json.path(Json.ACTIVE), false)
                    .greatest(TS)));
        }
        if (change instanceof DeletePin d) {
            return List.of(softDelete(PINS, d.pinId(), d.tombstone(), d.occurredAtMillis()));
        }
        if (change instanceof DeleteComment d) {
            return List.of(softDelete(COMMENTS, d.commentId(), d.tombstone(), d.occurredAtMillis()));
        }
        if (change instanceof PutMapping m) {
            Mapping t = m.mapping();
            Upsert u = t.hasActive()
                    ? Upsert.into(t.table(), t.from(), t.to(), SEQUENCE, ACTIVE).row(m.from(), m.to(), m.sequence(), 1)
                    : Upsert.into(t.table(), t.from(), t.to(), SEQUENCE).row(m.from(), m.to(), m.sequence());
            return List.of(row(m.from(), t.table(), u.overwrite(SEQUENCE)));
        }
        if (change instanceof DeactivateMapping m) {
            Mapping t = m.mapping();
            return List.of(row(m.from(), t.table(), Upsert.into(t.table(), t.from(), t.to(), SEQUENCE, ACTIVE)
                    .row(m.from(), m.to(), m.sequence(), 0).set(ACTIVE, 0)));
        }
        if (change instanceof PutLike l) {
            return List.of(like(Mapping.USER_LIKES_PINS, l.userId(), l.pinId(), l), like(Mapping.PIN_LIKED_BY_USERS, l.pinId(), l.userId(), l));
        }
        ReorderBoard r = (ReorderBoard) change;
        return List.of(new Piece(CanonicalIds.shardOf(r.boardId()), BOARDS, 0, null, r));
    }

    /** Seed 002's soft delete: {@code "active": false} in the object's JSON, or its tombstone when the row is absent. */
    private static Piece softDelete(String table, long id, String tombstone, long occurredAtMillis) {
        return row(id, table, Upsert.into(table, LOCAL_ID, DATA, TS).row(CanonicalIds.localOf(id), tombstone,
                CanonicalLayout.ts(occurredAtMillis)).jsonSet(DATA, Json.path(Json.ACTIVE), false).greatest(TS));
    }

    private static Piece like(Mapping t, long from, long to, PutLike l) {
        return row(from, t.table(), Upsert.into(t.table(), t.from(), t.to(), SEQUENCE, LIKED, VERSION)
                .row(from, to, l.occurredAtMillis(), l.liked() ? 1 : 0, l.version()).newerWins(VERSION, LIKED, SEQUENCE));
    }

    private static Piece row(long placedBy, String table, Upsert upsert) {
        return new Piece(CanonicalIds.shardOf(placedBy), table, upsert.rowCount(), upsert, null);
    }

    /**
     * One host's transaction. Upserts are queued (same-text statements go as one JDBC batch); reorders
     * run last, after the queue is flushed, so they see every mapping row this batch inserts. Every
     * upsert commutes with the others, so the batching's reordering of statements is harmless.
     */
    private static Map<String, Long> write(HostWriter w, List<Piece> pieces) throws SQLException {
        Map<String, Long> rows = new TreeMap<>();
        List<Piece> reorders = new ArrayList<>();
        for (Piece p : pieces) {
            if (p.reorder() != null) {
                reorders.add(p);
            } else {
                w.add(p.shard(), p.write());
                rows.merge(p.table(), (long) p.rows(), Long::sum);
            }
        }
        w.flush();
        for (Piece p : reorders) {
            int positioned = reorder(w, p.shard(), p.reorder());
            if (positioned >= 0) {
                rows.merge(BOARDS, 1L, Long::sum);
                rows.merge(Mapping.BOARD_HAS_PINS.table(), (long) positioned, Long::sum);
            }
        }
        return rows;
    }

    /** Applies a reorder if it is newer than the board's order in force; returns the positions set, -1 when older. */
    private static int reorder(HostWriter w, int shard, ReorderBoard r) throws SQLException {
        byte[] version = r.version();
        long local = CanonicalIds.localOf(r.boardId());
        int newer = w.execute(shard, Update.table(BOARDS).set(ORDER_VERSION, version).atLeast(TS, CanonicalLayout.ts(r.occurredAtMillis()))
                .where(eq(LOCAL_ID, local), or(isNull(ORDER_VERSION), lt(ORDER_VERSION, version))));
        if (newer == 0) return -1;
        Mapping bp = Mapping.BOARD_HAS_PINS;
        w.execute(shard, Update.table(bp.table()).setNull(POSITION).where(eq(bp.from(), r.boardId())));
        for (int i = 0; i < r.pinIds().size(); i++) {
            w.add(shard, Update.table(bp.table()).set(POSITION, i).where(eq(bp.from(), r.boardId()), eq(bp.to(), r.pinIds().get(i))));
        }
        w.flush();
        return r.pinIds().size();
    }

    // ---------------------------------------------------------------- references

    /** Which of {@code refs} exist: per host one statement per table (UNION ALL over its shards), hosts in parallel. */
    public Existing existing(Collection<CanonicalRef> refs) {
        Map<String, List<CanonicalRef>> byHost = new LinkedHashMap<>();
        for (CanonicalRef r : new HashSet<>(refs)) byHost.computeIfAbsent(db.hostOf(r.shard()), h -> new ArrayList<>()).add(r);
        Map<String, Future<Set<CanonicalRef>>> running = new LinkedHashMap<>();
        byHost.forEach((host, hostRefs) -> running.put(host, pool.submit(() -> lookUp(hostRefs))));
        Set<CanonicalRef> found = new HashSet<>();
        Map<String, StoreUnavailableException> failed = new TreeMap<>();
        for (Map.Entry<String, Future<Set<CanonicalRef>>> e : running.entrySet()) {
            try {
                found.addAll(join(e.getValue()));
            } catch (StoreUnavailableException down) {
                failed.put(e.getKey(), down);
            }
        }
        return new Existing(found, failed);
    }

    /** One host's refs: grouped by table, one selectEach per table. */
    private Set<CanonicalRef> lookUp(List<CanonicalRef> refs) {
        Map<String, List<CanonicalRef>> byTable = new LinkedHashMap<>();
        for (CanonicalRef r : refs) {
            String table = r instanceof CanonicalRef.ObjectRow o ? o.table() : ((CanonicalRef.MappingRow) r).mapping().table();
            byTable.computeIfAbsent(table, t -> new ArrayList<>()).add(r);
        }
        Set<CanonicalRef> found = new HashSet<>();
        for (List<CanonicalRef> group : byTable.values()) {
            Map<Integer, List<CanonicalRef>> byShard = new TreeMap<>();
            for (CanonicalRef r : group) byShard.computeIfAbsent(r.shard(), s -> new ArrayList<>()).add(r);
            CanonicalRef sample = group.get(0);
            if (sample instanceof CanonicalRef.ObjectRow o) {
                Map<Integer, Select> queries = perShard(byShard, rs -> Select.from(o.table()).columns(LOCAL_ID)
                        .where(in(LOCAL_ID, rs.stream().map(r -> CanonicalIds.localOf(((CanonicalRef.ObjectRow) r).id())).distinct().toList())));
                db.selectEach(queries).forEach((shard, rows) -> {
                    for (Row row : rows) found.add(CanonicalRef.object(o.table(), idOf(byShard.get(shard), row.getLong(LOCAL_ID))));
                });
            } else {
                Mapping m = ((CanonicalRef.MappingRow) sample).mapping();
                Map<Integer, Select> queries = perShard(byShard, rs -> Select.from(m.table()).columns(m.from(), m.to())
                        .where(in(m.from(), rs.stream().map(r -> ((CanonicalRef.MappingRow) r).from()).distinct().toList()),
                                in(m.to(), rs.stream().map(r -> ((CanonicalRef.MappingRow) r).to()).distinct().toList())));
                Set<CanonicalRef> wanted = new HashSet<>(group);
                db.selectEach(queries).values().forEach(rows -> {
                    for (Row row : rows) {
                        CanonicalRef r = CanonicalRef.mapping(m, row.getLong(m.from()), row.getLong(m.to()));
                        if (wanted.contains(r)) found.add(r); // the IN × IN square may match pairs nobody asked for
                    }
                });
            }
        }
        return found;
    }

    private static Map<Integer, Select> perShard(Map<Integer, List<CanonicalRef>> byShard, Function<List<CanonicalRef>, Select> query) {
        Map<Integer, Select> out = new HashMap<>();
        byShard.forEach((shard, rs) -> out.put(shard, query.apply(rs)));
        return out;
    }

    /** The full id of the object ref whose local id came back from its shard. */
    private static long idOf(List<CanonicalRef> asked, long localId) {
        for (CanonicalRef r : asked) {
            long id = ((CanonicalRef.ObjectRow) r).id();
            if (CanonicalIds.localOf(id) == localId) return id;
        }
        throw new IllegalStateException("a row with local id " + localId + " that was not asked for");
    }

    /** Readiness: one trivial query on the host holding {@code shard}; {@link StoreUnavailableException} when it does not answer. */
    public void ping(int shard) {
        db.select(Select.from(CanonicalLayout.USERS).columns(LOCAL_ID).where(eq(LOCAL_ID, 0L)).limit(1), ShardingKey.one(shard));
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
