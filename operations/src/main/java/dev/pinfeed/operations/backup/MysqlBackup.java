package dev.pinfeed.operations.backup;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.idallocator.OpenShards;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.operations.shards.MariaDbDump;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The MySQL part of a backup: per host, one {@code mariadb-dump} of its shard databases in one consistent
 * snapshot (gzip), with the binlog and GTID position it stands at. A restore loads chosen shards back on
 * the host that holds each shard now (after a move, that may not be the host it was dumped from), then
 * advances every restored id sequence by {@code idGap}, so ids leased after the backup are never leased again.
 */
final class MysqlBackup {

    private static final String DATABASE_LINE = "-- Current Database: `";

    private final PinfeedConfig config;
    private final MariaDbDump tools;
    private final Consumer<String> step;
    private final Consumer<String> waiting;

    MysqlBackup(PinfeedConfig config, Consumer<String> step, Consumer<String> waiting) {
        this.config = config;
        this.tools = new MariaDbDump(config.require("mysql.admin.user"), config.get("mysql.admin.password", ""), config.mysqlTls());
        this.step = step;
        this.waiting = waiting;
    }

    /** One dump per host, the hosts in parallel (a dump is mostly waiting on its server's metadata queries). */
    List<BackupManifest.MysqlDump> create(MysqlShardMap map, OpenShards only, Path backup) throws Exception {
        Files.createDirectories(backup.resolve("mysql"));
        List<String> hosts = new ArrayList<>(map.hosts());
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(Math.max(1, hosts.size()));
        try {
            List<java.util.concurrent.Future<BackupManifest.MysqlDump>> dumps = new ArrayList<>();
            for (String host : hosts) {
                List<Integer> shards = map.shardsOn(host).stream().filter(s -> only == null || only.contains(s)).toList();
                if (!shards.isEmpty()) dumps.add(pool.submit(() -> dump(map, host, shards, backup)));
            }
            List<BackupManifest.MysqlDump> out = new ArrayList<>();
            for (java.util.concurrent.Future<BackupManifest.MysqlDump> d : dumps) {
                try {
                    out.add(d.get());
                } catch (java.util.concurrent.ExecutionException e) {
                    if (e.getCause() instanceof Exception cause) throw cause;
                    throw e;
                }
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    private BackupManifest.MysqlDump dump(MysqlShardMap map, String host, List<Integer> shards, Path backup) throws Exception {
        List<String> databases = shards.stream().map(MysqlShardMap::databaseName).toList();
        String file = "mysql/" + host + ".sql.gz";
        long started = System.nanoTime();
        MariaDbDump.Snapshot snapshot;
        try (Writer gz = new BufferedWriter(new OutputStreamWriter(new GZIPOutputStream(Files.newOutputStream(backup.resolve(file)), 1 << 16),
                StandardCharsets.UTF_8), 1 << 16)) {
            snapshot = tools.dump(map.master(host), databases, gz, n -> {
                if (n % 128 == 0 || n == databases.size()) waiting.accept("mysql " + host + ": dumped " + n + "/" + databases.size() + " shard databases");
            });
        }
        long bytes = Files.size(backup.resolve(file));
        step.accept(String.format(java.util.Locale.ROOT, "mysql %s: %d shard databases dumped in %.1f s (%s, binlog %s, GTID %s)", host,
                databases.size(), (System.nanoTime() - started) / 1e9, megabytes(bytes), snapshot.binlog(), snapshot.gtid()));
        return new BackupManifest.MysqlDump(host, file, spans(shards), snapshot.binlog().toString(), snapshot.gtid(), bytes);
    }

    /**
     * Loads the shards of {@code manifest} that {@code only} selects (all when null) onto the hosts {@code map}
     * places them on now, replacing their tables; returns how many shard databases were restored.
     */
    int restore(BackupManifest manifest, Path backup, MysqlShardMap map, OpenShards only, long idGap) throws Exception {
        if (!map.fences().isEmpty()) throw new IllegalStateException("a shard move is cutting over (fenced " + map.fences() + "): restore after it");
        List<Integer> restored = new ArrayList<>();
        Map<String, MariaDbDump.Loader> loaders = new LinkedHashMap<>();
        try {
            for (BackupManifest.MysqlDump dump : manifest.mysql()) {
                StringBuilder header = new StringBuilder();
                MariaDbDump.Loader current = null;
                boolean inBlocks = false;
                try (BufferedReader in = new BufferedReader(new InputStreamReader(new GZIPInputStream(Files.newInputStream(backup.resolve(dump.file())),
                        1 << 16), StandardCharsets.UTF_8), 1 << 16)) {
                    for (String line; (line = in.readLine()) != null; ) {
                        if (line.startsWith(DATABASE_LINE)) {
                            inBlocks = true;
                            int shard = shardOf(line);
                            current = null;
                            if (shard >= 0 && (only == null || only.contains(shard))) {
                                if (shard >= map.shardCount()) throw new IllegalStateException("shard " + shard + " of the backup is not in the shard map");
                                String host = map.hostOf(shard);
                                current = loaders.get(host);
                                if (current == null) {
                                    current = tools.loader(map.master(host));
                                    current.write(header.toString());
                                    loaders.put(host, current);
                                }
                                restored.add(shard);
                                if (restored.size() % 64 == 0) waiting.accept("mysql: restoring shard databases, " + restored.size() + " so far");
                            }
                        }
                        if (!inBlocks) header.append(line).append('\n');
                        else if (current != null) {
                            current.write(line);
                            current.write('\n');
                        }
                    }
                }
            }
            for (MariaDbDump.Loader l : loaders.values()) l.finish();
        } finally {
            for (MariaDbDump.Loader l : loaders.values()) l.close();
        }
        advanceSequences(map, restored, idGap);
        step.accept("mysql: " + restored.size() + " shard databases restored (" + spans(restored.stream().sorted().toList())
                + "); their id sequences advanced by " + idGap);
        return restored.size();
    }

    /** Ids leased between the backup and the loss are in no dump: every restored sequence skips {@code gap} ids. */
    private void advanceSequences(MysqlShardMap map, List<Integer> shards, long gap) throws SQLException {
        Map<String, List<Integer>> byHost = new LinkedHashMap<>();
        for (int s : shards) byHost.computeIfAbsent(map.hostOf(s), h -> new ArrayList<>()).add(s);
        for (Map.Entry<String, List<Integer>> e : byHost.entrySet()) {
            try (Connection c = connect(map.master(e.getKey())); Statement st = c.createStatement()) {
                for (int s : e.getValue()) {
                    st.addBatch("UPDATE " + MysqlShardMap.databaseName(s) + ".id_sequences SET next_local = LEAST(next_local + " + gap + ", "
                            + ShardedId.MAX_LOCAL_ID + ")");
                }
                st.executeBatch();
            }
        }
    }

    private Connection connect(HostPort master) throws SQLException {
        return DriverManager.getConnection(config.mysqlJdbcUrl(master), config.require("mysql.admin.user"), config.get("mysql.admin.password", ""));
    }

    /** The shard of a {@code -- Current Database: `db00042`} line, or -1 for a database that is not a shard's. */
    static int shardOf(String line) {
        String db = line.substring(DATABASE_LINE.length(), line.lastIndexOf('`'));
        if (!db.matches("db\\d{5}")) return -1;
        int shard = Integer.parseInt(db.substring(2));
        return MysqlShardMap.databaseName(shard).equals(db) ? shard : -1;
    }

    /** Ascending shards as ranges: {@code 0-63,128,130-131}. */
    static String spans(List<Integer> ascending) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < ascending.size(); ) {
            int j = i;
            while (j + 1 < ascending.size() && ascending.get(j + 1) == ascending.get(j) + 1) j++;
            if (sb.length() > 0) sb.append(',');
            sb.append(ascending.get(i));
            if (j > i) sb.append('-').append(ascending.get(j));
            i = j + 1;
        }
        return sb.toString();
    }

    static String megabytes(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
}
