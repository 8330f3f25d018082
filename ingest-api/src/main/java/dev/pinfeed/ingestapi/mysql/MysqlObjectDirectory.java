package dev.pinfeed.ingestapi.mysql;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.httpkit.HealthCheck;
import dev.pinfeed.idallocator.ShardedId;
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

    public MysqlObjectDirectory(ShardDataSources sources) {
        this.sources = sources;
    }

    @Override
    public void register(List<Entry> entries) {
        perHost(entries, Entry::id, (db, rows) -> "INSERT IGNORE INTO " + db + ".object_directory (id, owner_id, parent_id) VALUES "
                + rows.stream().map(e -> "(" + e.id() + "," + e.ownerId() + "," + e.parentId() + ")").collect(Collectors.joining(",")),
                ";", (host, sql) -> update(host, sql, "registering objects"));
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

    /** Groups rows by shard database and host, and runs one combined statement per host. */
    private <T> void perHost(Collection<T> rows, Function<T, Long> idOf, PerDatabase<T> perDatabase, String joiner, PerHost run) {
        if (rows.isEmpty()) return;
        Map<Integer, List<T>> byShard = rows.stream().collect(Collectors.groupingBy(r -> ShardedId.decode(idOf.apply(r)).shard(),
                TreeMap::new, Collectors.toList()));
        Map<String, StringBuilder> byHost = new TreeMap<>();
        byShard.forEach((shard, shardRows) -> {
            StringBuilder sql = byHost.computeIfAbsent(sources.hostOf(shard), h -> new StringBuilder());
            if (sql.length() > 0) sql.append(joiner);
            sql.append(perDatabase.sql(MysqlShardMap.databaseName(shard), shardRows));
        });
        if (byHost.size() == 1) {
            byHost.forEach((host, sql) -> run.run(host, sql.toString()));
            return;
        }
        // Hosts are independent: one round trip each, concurrently.
        List<java.util.concurrent.CompletableFuture<Void>> calls = new java.util.ArrayList<>();
        byHost.forEach((host, sql) -> calls.add(java.util.concurrent.CompletableFuture.runAsync(() -> run.run(host, sql.toString()), HOSTS)));
        try {
            java.util.concurrent.CompletableFuture.allOf(calls.toArray(java.util.concurrent.CompletableFuture[]::new)).join();
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
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
