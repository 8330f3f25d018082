package dev.pinfeed.ingestapi.mysql;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.httpkit.HealthCheck;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.ingestapi.core.GroupCommitter;
import dev.pinfeed.ingestapi.core.ObjectDirectory;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.mysqlshards.ShardDataSources;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code dbNNNNN.object_directory}, each row in the shard its id names. A deleted object has a second
 * row under its negated id (sharded ids are positive, so it names nothing else) with the same owner and
 * parent: the table keeps its columns and rows never change, so no migration, and an instance that
 * does not know deletions ignores it. Both rows travel in one {@code IN} list. A batch costs one round
 * trip per shard host: the statements for every shard database on a host travel together
 * (the pool enables {@code allowMultiQueries}; all values are numbers, formatted here, never text).
 * Registrations are group-committed ({@link GroupCommitter}): concurrent requests' new entries for a
 * host share one transaction, at most two in flight per host.
 * A host that cannot be reached or refuses work for now is a {@link StoreUnavailableException}
 * naming the host; anything else (bad SQL, a missing table) is a bug.
 */
public final class MysqlObjectDirectory implements ObjectDirectory {

    /** Connector/J settings this adapter needs on its pool. */
    public static final Map<String, String> DRIVER_PROPERTIES = Map.of("allowMultiQueries", "true");

    private final ShardDataSources sources;
    /** Daemon threads for the per-host round trips of one batch. */
    private static final java.util.concurrent.ExecutorService HOSTS = java.util.concurrent.Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "object-directory-host");
        t.setDaemon(true);
        return t;
    });

    /** Most rows one group commit writes to a host (a statement of some 100 KB). */
    static final int MAX_ROWS_PER_COMMIT = 4_000;
    /** Group commits that may run at once on one host: a request that arrives during one starts the next. */
    static final int COMMITS_IN_FLIGHT_PER_HOST = 2;

    /** Registrations of concurrent requests, gathered per host into one transaction. */
    private final GroupCommitter<String, Entry> registrations;

    public MysqlObjectDirectory(ShardDataSources sources) {
        this.sources = sources;
        this.registrations = new GroupCommitter<>(HOSTS, MAX_ROWS_PER_COMMIT, COMMITS_IN_FLIGHT_PER_HOST,
                // Routed again by the map in force at commit time (normally all on the lane's host; a shard moved meanwhile goes to its new one).
                (host, entries) -> sql(entries, Entry::id, MysqlObjectDirectory::insertRows, ";").forEach((h, sql) -> update(h, sql, "registering objects")));
    }

    /**
     * Group commit: the entries go to their hosts' next commit, shared with every other request
     * registering on that host meanwhile (one transaction per host, at most two in flight per host);
     * returns once every host committed. A failed commit fails every request it held, each of which then
     * undoes its own entries ({@code remove}); none of the failed commit's rows was written.
     */
    @Override
    public void register(List<Entry> entries) {
        if (entries.isEmpty()) return;
        Map<String, List<Entry>> byHost = entries.stream().collect(Collectors.groupingBy(e -> sources.hostOf(ShardedId.decode(e.id()).shard()),
                TreeMap::new, Collectors.toList()));
        List<java.util.concurrent.CompletableFuture<Void>> commits = new java.util.ArrayList<>();
        byHost.forEach((host, rows) -> commits.add(registrations.submit(host, rows)));
        await(commits);
    }

    private static String insertRows(String db, List<Entry> rows) {
        return "INSERT IGNORE INTO " + db + ".object_directory (id, owner_id, parent_id) VALUES "
                + rows.stream().map(e -> "(" + e.id() + "," + e.ownerId() + "," + e.parentId() + ")").collect(Collectors.joining(","));
    }

    @Override
    public void remove(List<Entry> entries) {
        perHost(entries, Entry::id, (db, rows) -> "DELETE FROM " + db + ".object_directory WHERE id IN ("
                + rows.stream().map(e -> Long.toString(e.id())).collect(Collectors.joining(",")) + ")",
                ";", (host, sql) -> update(host, sql, "removing objects"));
    }

    @Override
    public void markDeleted(List<Entry> entries) {
        perHost(entries, Entry::id, (db, rows) -> "INSERT IGNORE INTO " + db + ".object_directory (id, owner_id, parent_id) VALUES "
                + rows.stream().map(e -> "(" + (-e.id()) + "," + e.ownerId() + "," + e.parentId() + ")").collect(Collectors.joining(",")),
                ";", (host, sql) -> update(host, sql, "recording deletions"));
    }

    @Override
    public Map<Long, Entry> find(Collection<Long> ids) {
        Map<Long, Entry> live = new java.util.concurrent.ConcurrentHashMap<>(); // hosts answer concurrently
        Map<Long, Entry> deleted = new java.util.concurrent.ConcurrentHashMap<>();
        perHost(ids, id -> id, (db, rows) -> "SELECT id, owner_id, parent_id FROM " + db + ".object_directory WHERE id IN ("
                + rows.stream().map(id -> id + "," + (-id)).collect(Collectors.joining(",")) + ")",
                " UNION ALL ", (host, sql) -> {
                    try (Connection c = sources.connection(host); Statement st = c.createStatement();
                         ResultSet rs = st.executeQuery(sql)) {
                        while (rs.next()) {
                            long id = rs.getLong(1);
                            if (id < 0) deleted.put(-id, new Entry(-id, rs.getLong(2), rs.getLong(3), true));
                            else live.put(id, new Entry(id, rs.getLong(2), rs.getLong(3)));
                        }
                    } catch (SQLException e) {
                        throw ShardDataSources.failure(host, "reading the object directory", e);
                    }
                });
        Map<Long, Entry> found = new java.util.HashMap<>(live);
        found.putAll(deleted); // the deletion row alone is enough (rows written by the repair in docs/operations.md)
        return found;
    }

    private interface PerDatabase<T> {
        String sql(String database, List<T> rows);
    }

    private interface PerHost {
        void run(String host, String sql);
    }

    /** The combined statement of {@code rows} per host: each shard database's statement, joined. */
    private <T> Map<String, String> sql(Collection<T> rows, Function<T, Long> idOf, PerDatabase<T> perDatabase, String joiner) {
        Map<Integer, List<T>> byShard = rows.stream().collect(Collectors.groupingBy(r -> ShardedId.decode(idOf.apply(r)).shard(),
                TreeMap::new, Collectors.toList()));
        Map<String, StringBuilder> byHost = new TreeMap<>();
        byShard.forEach((shard, shardRows) -> {
            StringBuilder sql = byHost.computeIfAbsent(sources.hostOf(shard), h -> new StringBuilder());
            if (sql.length() > 0) sql.append(joiner);
            sql.append(perDatabase.sql(MysqlShardMap.databaseName(shard), shardRows));
        });
        Map<String, String> out = new TreeMap<>();
        byHost.forEach((host, sql) -> out.put(host, sql.toString()));
        return out;
    }

    /** Groups rows by shard database and host, and runs one combined statement per host. */
    private <T> void perHost(Collection<T> rows, Function<T, Long> idOf, PerDatabase<T> perDatabase, String joiner, PerHost run) {
        if (rows.isEmpty()) return;
        Map<String, String> byHost = sql(rows, idOf, perDatabase, joiner);
        if (byHost.size() == 1) {
            byHost.forEach(run::run);
            return;
        }
        // Hosts are independent: one round trip each, concurrently.
        List<java.util.concurrent.CompletableFuture<Void>> calls = new java.util.ArrayList<>();
        byHost.forEach((host, sql) -> calls.add(java.util.concurrent.CompletableFuture.runAsync(() -> run.run(host, sql), HOSTS)));
        await(calls);
    }

    /** Waits for every call; the first failure passes on as it was thrown (an outage naming its host, or a bug). */
    private static void await(List<java.util.concurrent.CompletableFuture<Void>> calls) {
        try {
            java.util.concurrent.CompletableFuture.allOf(calls.toArray(java.util.concurrent.CompletableFuture[]::new)).join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error err) throw err;
            throw e;
        }
    }

    /** All of a host's statements in one transaction: one durable commit per host, not one per shard database. */
    private void update(String host, String sql, String what) {
        try (Connection c = sources.connection(host)) {
            c.setAutoCommit(false);
            try (Statement st = c.createStatement()) {
                st.execute(sql);
                while (st.getMoreResults() || st.getUpdateCount() != -1) {
                    // drain the results of every statement so errors in later ones surface
                }
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw ShardDataSources.failure(host, what, e);
        }
    }

    /**
     * Returns when {@code host}'s current master answers {@code SELECT 1} through the pools the
     * directory (and the username index, on the same pools) use; else {@link StoreUnavailableException} naming the host.
     */
    public void check(String host) {
        if (!sources.shardMap().hosts().contains(host)) return; // moved out of the live map since start: nothing routes there
        try (Connection c = sources.connection(host); Statement st = c.createStatement()) {
            st.execute("SELECT 1");
        } catch (SQLException e) {
            throw new StoreUnavailableException(host, "master " + sources.master(host) + " does not answer: " + e.getMessage(), e);
        }
    }

    /** One readiness check per shard host of the map in force now, named by the host. */
    public Map<String, HealthCheck> healthChecks() {
        Map<String, HealthCheck> checks = new LinkedHashMap<>();
        for (String host : sources.hosts()) checks.put(host, () -> check(host));
        return checks;
    }

    @Override
    public void close() {
        sources.close();
    }
}
