package dev.pinfeed.mysqlshards.query;

import static dev.pinfeed.config.Futures.join;

import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.mysqlshards.ShardDataSources;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * Seed 003's sharded query API over pinfeed's logical shards: structured statements (no SQL text
 * from callers, so nothing can be injected), routed by a {@link ShardingKey} to exactly the shards
 * it names. A query over several shards runs one statement per host (the host's shards as UNION ALL
 * in chunks), hosts in parallel, and the rows are merged in the query's order and bounded by its
 * limit. Writes run in one transaction per host ({@link #inTransaction}).
 */
public final class ShardedDb implements AutoCloseable {

    /** Shard queries per UNION ALL statement: long enough to save round trips, short enough for the parser. */
    static final int QUERIES_PER_STATEMENT = 128;

    private final ShardDataSources sources;
    private final ExecutorService hostPool;

    public ShardedDb(ShardDataSources sources) {
        this.sources = sources;
        AtomicInteger n = new AtomicInteger();
        this.hostPool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "sharded-db-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    public int shardCount() {
        return sources.shardMap().shardCount();
    }

    public String hostOf(int shard) {
        return sources.hostOf(shard);
    }

    /** Rows of {@code query} on the shards {@code key} names, merged in the query's order, at most its limit. */
    public List<Row> select(Select query, ShardingKey key) {
        SortedSet<Integer> shards = key.shards(shardCount());
        if (shards.size() == 1) {
            int shard = shards.first();
            return onHost(sources.hostOf(shard), c -> run(c, shard, query));
        }
        if (query.offset > 0) throw new IllegalArgumentException("offset works on one shard only (seed 003); page with a keyset condition");
        Map<String, List<Integer>> byHost = byHost(shards);
        List<Future<List<Row>>> parts = new ArrayList<>();
        for (Map.Entry<String, List<Integer>> h : byHost.entrySet()) {
            parts.add(hostPool.submit(() -> onHost(h.getKey(), c -> scatter(c, h.getValue(), shard -> List.of(query)))));
        }
        List<Row> rows = new ArrayList<>();
        for (Future<List<Row>> f : parts) rows.addAll(join(f));
        if (!query.orderBy.isEmpty()) rows.sort(comparator(query.orderBy));
        return query.limit != null && rows.size() > query.limit ? new ArrayList<>(rows.subList(0, query.limit)) : rows;
    }

    /**
     * A batch lookup: each shard its own query on one table (e.g. {@code local_id IN (...)} of the ids
     * that live there), all with the same columns. One statement per host (its shards' queries as
     * UNION ALL, in chunks), hosts in parallel; rows by shard, in no particular order. A host that
     * cannot be reached fails the call with {@link dev.pinfeed.config.StoreUnavailableException}: to
     * keep hosts apart, call once per host ({@link #hostOf}).
     */
    public Map<Integer, List<Row>> selectEach(Map<Integer, Select> perShard) {
        for (Select q : perShard.values()) {
            if (q.limit != null || q.offset > 0 || !q.orderBy.isEmpty()) throw new IllegalArgumentException("selectEach takes no order, limit or offset");
        }
        Map<Integer, List<Select>> each = new TreeMap<>();
        perShard.forEach((shard, q) -> each.put(shard, List.of(q)));
        return selectEachOf(each);
    }

    /**
     * {@link #selectEach} with several queries per shard (e.g. the newest rows of each of several users who live
     * there), each one ordered and limited on its own (an order needs a limit: without one MariaDB drops the order
     * of a derived table). Their rows come back together by shard, in no particular order: each query should
     * select what tells its rows apart (the user's id).
     */
    public Map<Integer, List<Row>> selectEachOf(Map<Integer, List<Select>> perShard) {
        Map<Integer, List<Row>> out = new TreeMap<>();
        List<Integer> shards = perShard.entrySet().stream().filter(e -> !e.getValue().isEmpty()).map(Map.Entry::getKey).toList();
        if (shards.isEmpty()) return out;
        Select first = perShard.get(shards.get(0)).get(0);
        for (Integer shard : shards) {
            for (Select q : perShard.get(shard)) {
                if (!q.columns.equals(first.columns)) throw new IllegalArgumentException("selectEach needs the same columns on every shard");
                if (q.limit == null && !q.orderBy.isEmpty()) throw new IllegalArgumentException("selectEach orders a query only with a limit");
            }
        }
        Map<String, List<Integer>> byHost = byHost(ShardingKey.of(shards).shards(shardCount()));
        List<Future<List<Row>>> parts = new ArrayList<>();
        for (Map.Entry<String, List<Integer>> h : byHost.entrySet()) {
            parts.add(hostPool.submit(() -> onHost(h.getKey(), c -> scatter(c, h.getValue(), perShard::get))));
        }
        for (Future<List<Row>> f : parts) {
            for (Row r : join(f)) out.computeIfAbsent(r.shard(), s -> new ArrayList<>()).add(r);
        }
        return out;
    }

    /** COUNT(*) summed over the shards {@code key} names. */
    public long count(Count query, ShardingKey key) {
        Map<String, List<Integer>> byHost = byHost(key.shards(shardCount()));
        List<Future<Long>> parts = new ArrayList<>();
        for (Map.Entry<String, List<Integer>> h : byHost.entrySet()) {
            parts.add(hostPool.submit(() -> onHost(h.getKey(), c -> {
                long total = 0;
                for (int shard : h.getValue()) {
                    List<Object> params = new ArrayList<>();
                    String sql = query.render(MysqlShardMap.databaseName(shard), params);
                    try (PreparedStatement ps = prepare(c, sql, params); ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        total += rs.getLong(1);
                    }
                }
                return total;
            })));
        }
        long sum = 0;
        for (Future<Long> f : parts) sum += join(f);
        return sum;
    }

    /**
     * Runs {@code work} in one transaction on {@code host}'s master: committed when it returns,
     * rolled back when it throws. A connection failure surfaces as
     * {@link dev.pinfeed.config.StoreUnavailableException} naming the host.
     */
    public <T> T inTransaction(String host, HostWork<T> work) {
        return onHost(host, c -> {
            c.setAutoCommit(false);
            try {
                HostWriter writer = new HostWriter(c, host, sources);
                T result = work.run(writer);
                writer.flush();
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                try {
                    c.rollback();
                } catch (SQLException ignored) {
                    // the connection is going away anyway
                }
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        });
    }

    /** One write on its own (autocommit). */
    public int write(int shard, Write statement) {
        return inTransaction(sources.hostOf(shard), w -> w.execute(shard, statement));
    }

    /** What a transaction does with its host's shards. */
    @FunctionalInterface
    public interface HostWork<T> {
        T run(HostWriter writer) throws SQLException;
    }

    private Map<String, List<Integer>> byHost(SortedSet<Integer> shards) {
        Map<String, List<Integer>> byHost = new LinkedHashMap<>();
        for (int s : shards) byHost.computeIfAbsent(sources.hostOf(s), h -> new ArrayList<>()).add(s);
        return byHost;
    }

    @FunctionalInterface
    interface ConnectionWork<T> {
        T run(Connection c) throws SQLException;
    }

    private <T> T onHost(String host, ConnectionWork<T> work) {
        try (Connection c = sources.connection(host)) {
            return work.run(c);
        } catch (SQLException e) {
            throw ShardDataSources.failure(host, "query", e);
        }
    }

    static List<Row> run(Connection c, int shard, Select query) throws SQLException {
        List<Object> params = new ArrayList<>();
        String sql = query.render(MysqlShardMap.databaseName(shard), params);
        try (PreparedStatement ps = prepare(c, sql, params); ResultSet rs = ps.executeQuery()) {
            return rows(rs, shard, 0);
        }
    }

    /** The host's shards' queries in UNION ALL chunks; a shard column tells which shard each row came from. */
    private static List<Row> scatter(Connection c, List<Integer> shards, IntFunction<List<Select>> queriesOf) throws SQLException {
        List<Integer> partShards = new ArrayList<>();
        List<Select> partQueries = new ArrayList<>();
        for (int shard : shards) {
            for (Select q : queriesOf.apply(shard)) {
                partShards.add(shard);
                partQueries.add(q);
            }
        }
        List<Row> out = new ArrayList<>();
        for (int from = 0; from < partQueries.size(); from += QUERIES_PER_STATEMENT) {
            int to = Math.min(partQueries.size(), from + QUERIES_PER_STATEMENT);
            StringBuilder sql = new StringBuilder();
            List<Object> params = new ArrayList<>();
            for (int i = from; i < to; i++) {
                if (i > from) sql.append(" UNION ALL ");
                int shard = partShards.get(i);
                String one = partQueries.get(i).render(MysqlShardMap.databaseName(shard), params);
                // The shard number as the first column, so a merged row still knows its shard.
                sql.append("(SELECT ").append(shard).append(" AS pinfeed_shard, q.* FROM (").append(one).append(") q)");
            }
            try (PreparedStatement ps = prepare(c, sql.toString(), params); ResultSet rs = ps.executeQuery()) {
                out.addAll(rows(rs, -1, 1));
            }
        }
        return out;
    }

    static PreparedStatement prepare(Connection c, String sql, List<Object> params) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        bind(ps, params);
        return ps;
    }

    static void bind(PreparedStatement ps, List<Object> params) throws SQLException {
        for (int i = 0; i < params.size(); i++) ps.setObject(i + 1, params.get(i));
    }

    /** Rows of a result; with {@code shardColumn} 1 the first column is the shard number. */
    private static List<Row> rows(ResultSet rs, int shard, int shardColumn) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        List<Row> out = new ArrayList<>();
        while (rs.next()) {
            Map<String, Object> values = new LinkedHashMap<>();
            for (int i = 1 + shardColumn; i <= meta.getColumnCount(); i++) values.put(meta.getColumnLabel(i), rs.getObject(i));
            out.add(new Row(shardColumn == 1 ? rs.getInt(1) : shard, values));
        }
        return out;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Comparator<Row> comparator(List<Order> orderBy) {
        Comparator<Row> c = null;
        for (Order o : orderBy) {
            Comparator<Row> term = Comparator.comparing(r -> (Comparable) r.get(o.column()), Comparator.nullsFirst(Comparator.naturalOrder()));
            if (!o.ascending()) term = term.reversed();
            c = c == null ? term : c.thenComparing(term);
        }
        return c;
    }

    @Override
    public void close() {
        hostPool.shutdownNow();
    }
}
