package dev.pinfeed.operations.backup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedstore.hbase.HBaseClusters;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.operations.CliRun;
import dev.pinfeed.operations.shards.PrivateShardMap;
import dev.pinfeed.redismasters.RedisClientSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * {@code ./pinfeed backup create|list|restore} on the real servers: for each store, back up, write more,
 * destroy, restore, and find exactly the backed-up state. Each part touches only what the test owns:
 * shard databases 4300-4303 of a map of its own, Redis keys of its own prefix, an HBase table of its own.
 */
@ExtendWith(StackExtension.class)
class BackupRestoreIT {

    @TempDir Path backups;

    @Test
    void mysqlShardsComeBackAsBackedUpWithTheirIdSequencesAdvanced(TestStack stack) throws Exception {
        PinfeedConfig config = privateShards(stack);
        List<String> dbs = List.of("db04300", "db04301", "db04302", "db04303");
        try {
            try (Connection c = admin(stack); Statement st = c.createStatement()) {
                for (String db : dbs) st.execute("DROP DATABASE IF EXISTS " + db);
            }
            PrivateShardMap.createShardDatabases(stack, "mysql001", 4300, 4303);
            try (Connection c = admin(stack); Statement st = c.createStatement()) {
                for (String db : dbs) {
                    st.execute("INSERT INTO " + db + ".users (local_id, data) VALUES (1, '{\"n\":\"before\"}'), (2, '{\"n\":\"kept\"}')");
                    st.execute("INSERT INTO " + db + ".id_sequences (type_id, next_local) VALUES (1, 1001)");
                }
            }
            CliRun create = CliRun.of(config, null, "backup", "create", "--dir", backups.toString(), "--stores", "mysql", "--mysql-shards", "4300-4303");
            assertThat(create.code()).as(create.out() + create.err()).isZero();
            String id = onlyBackup();
            try (Connection c = admin(stack); Statement st = c.createStatement()) {
                st.execute("UPDATE db04300.users SET data = '{\"n\":\"after\"}' WHERE local_id = 1");
                st.execute("INSERT INTO db04301.users (local_id, data) VALUES (3, '{}')");
                st.execute("UPDATE db04302.id_sequences SET next_local = 5001");
                for (String db : dbs) st.execute("DROP DATABASE " + db); // the store is lost
            }

            CliRun restore = CliRun.of(config, null, "backup", "restore", id, "--dir", backups.toString(), "--store", "mysql", "--id-gap", "1000000");
            assertThat(restore.code()).as(restore.out() + restore.err()).isZero();
            assertThat(restore.out()).contains("4 shard databases restored (4300-4303)").contains("./pinfeed replay canonical --from ");

            try (Connection c = admin(stack); Statement st = c.createStatement()) {
                assertThat(single(st, "SELECT data FROM db04300.users WHERE local_id = 1")).contains("before");
                assertThat(single(st, "SELECT COUNT(*) FROM db04301.users")).isEqualTo("2");
                // Ids leased after the backup (up to 5000 here) are skipped: the sequence restarts past them.
                assertThat(single(st, "SELECT next_local FROM db04302.id_sequences WHERE type_id = 1")).isEqualTo("1001001");
            }
            // A backup keeps other shards out: restoring a shard it does not hold changes nothing and says so.
            CliRun other = CliRun.of(config, null, "backup", "restore", id, "--dir", backups.toString(), "--store", "mysql", "--mysql-shards", "7");
            assertThat(other.out()).contains("0 shard databases restored");
        } finally {
            try (Connection c = admin(stack); Statement st = c.createStatement()) {
                for (String db : dbs) st.execute("DROP DATABASE IF EXISTS " + db);
            }
        }
    }

    @Test
    void redisKeysComeBackWithTheirValuesAndTtlsWhileTheInstanceServes(TestStack stack) throws Exception {
        String prefix = stack.keyPrefix("backup");
        HostPort master = stack.config().redisInstances().get(0).master();
        String instance = stack.config().redisInstances().get(0).name();
        try (Jedis redis = RedisClientSettings.from(stack.config()).plainConnection(master, Duration.ofSeconds(5), Duration.ofSeconds(5))) {
            redis.set(prefix + "a", "1");
            redis.zadd(prefix + "z", Map.of("x", 1.0, "y", 2.0));
            redis.setex(prefix + "ttl", 3600, "t");
            String cached = "pf:c:{v0}:user:" + stack.freshId(); // a canonical cache entry: stale after a restore, never restored
            redis.set(cached, "{}");
            CliRun create = CliRun.of(stack.config(), null, "backup", "create", "--dir", backups.toString(), "--stores", "redis");
            assertThat(create.code()).as(create.out() + create.err()).isZero();
            String id = onlyBackup();
            redis.set(prefix + "a", "changed");
            redis.del(prefix + "z", prefix + "ttl");
            redis.set(prefix + "new", "after the backup");
            redis.del(cached);

            CliRun restore = CliRun.of(stack.config(), null, "backup", "restore", id, "--dir", backups.toString(), "--store", "redis",
                    "--redis-instances", instance, "--redis-keys", prefix + "*");
            assertThat(restore.code()).as(restore.out() + restore.err()).isZero();
            assertThat(restore.out()).contains("3 keys matching").contains("./pinfeed replay graph --from ");

            assertThat(redis.get(prefix + "a")).isEqualTo("1");
            assertThat(redis.zrange(prefix + "z", 0, -1)).containsExactly("x", "y");
            assertThat(redis.ttl(prefix + "ttl")).isBetween(3000L, 3600L);
            // Keys the backup does not have are left as they are: the replay and verify graph --repair settle them.
            assertThat(redis.get(prefix + "new")).isEqualTo("after the backup");
            redis.del(prefix + "a", prefix + "z", prefix + "ttl", prefix + "new");

            CliRun caches = CliRun.of(stack.config(), null, "backup", "restore", id, "--dir", backups.toString(), "--store", "redis",
                    "--redis-instances", instance, "--redis-keys", cached);
            assertThat(caches.out()).contains("0 keys matching").contains("1 canonical cache keys left out");
            assertThat(redis.exists(cached)).isFalse();
        }
    }

    @Test
    void anHBaseTableDroppedAfterItsBackupComesBackFromItsSnapshotOrFromItsExport(TestStack stack) throws Exception {
        TableName table = TableName.valueOf("backup_it_" + stack.uniqueName("t").replaceAll("[^A-Za-z0-9_]", "_"));
        byte[] f = Bytes.toBytes("f");
        try (org.apache.hadoop.hbase.client.Connection c = ConnectionFactory.createConnection(
                HBaseClusters.clientConfiguration(stack.config().hbasePrimaryZookeeper())); Admin admin = c.getAdmin()) {
            admin.createTable(TableDescriptorBuilder.newBuilder(table).setColumnFamily(ColumnFamilyDescriptorBuilder.of(f)).build());
            try {
                try (Table t = c.getTable(table)) {
                    for (int i = 0; i < 100; i++) t.put(new Put(Bytes.toBytes("row" + i)).addColumn(f, f, Bytes.toBytes("v" + i)));
                }
                Map<String, String> backedUp = rows(c, table);
                CliRun create = CliRun.of(stack.config(), null, "backup", "create", "--dir", backups.toString(), "--stores", "hbase",
                        "--hbase-tables", table.getNameAsString());
                assertThat(create.code()).as(create.out() + create.err()).isZero();
                String id = onlyBackup();
                try (Table t = c.getTable(table)) {
                    t.put(new Put(Bytes.toBytes("row0")).addColumn(f, f, Bytes.toBytes("changed")));
                    t.delete(new Delete(Bytes.toBytes("row1")));
                }
                admin.disableTable(table);
                admin.deleteTable(table); // the store is lost

                CliRun restore = CliRun.of(stack.config(), null, "backup", "restore", id, "--dir", backups.toString(), "--store", "hbase");
                assertThat(restore.code()).as(restore.out() + restore.err()).isZero();
                assertThat(rows(c, table)).isEqualTo(backedUp);

                // Restored over a live table too: the rows written since are undone.
                try (Table t = c.getTable(table)) {
                    t.put(new Put(Bytes.toBytes("row0")).addColumn(f, f, Bytes.toBytes("changed again")));
                }
                assertThat(CliRun.of(stack.config(), null, "backup", "restore", id, "--dir", backups.toString(), "--store", "hbase").code()).isZero();
                assertThat(rows(c, table)).isEqualTo(backedUp);
                CliRun list = CliRun.of(stack.config(), null, "backup", "list", "--dir", backups.toString());
                assertThat(list.out()).contains(id).contains(table.getNameAsString());

                // Another cluster, or the snapshot lost: the backup directory alone brings the table back (its export).
                for (var s : admin.listSnapshots()) if (s.getTableName().equals(table)) admin.deleteSnapshot(s.getName());
                admin.disableTable(table);
                admin.deleteTable(table);
                CliRun fromExport = CliRun.of(stack.config(), null, "backup", "restore", id, "--dir", backups.toString(), "--store", "hbase");
                assertThat(fromExport.code()).as(fromExport.out() + fromExport.err()).isZero();
                assertThat(fromExport.out()).contains("100 cells written back from the backup's export");
                assertThat(rows(c, table)).isEqualTo(backedUp);
                // Over a live table too: what was written since is gone.
                try (Table t = c.getTable(table)) {
                    t.put(new Put(Bytes.toBytes("row200")).addColumn(f, f, Bytes.toBytes("new")));
                }
                assertThat(CliRun.of(stack.config(), null, "backup", "restore", id, "--dir", backups.toString(), "--store", "hbase").code()).isZero();
                assertThat(rows(c, table)).isEqualTo(backedUp);
            } finally {
                if (admin.tableExists(table)) {
                    admin.disableTable(table);
                    admin.deleteTable(table);
                }
                for (var s : admin.listSnapshots()) if (s.getTableName().equals(table)) admin.deleteSnapshot(s.getName());
            }
        }
    }

    @Test
    void aBadPeriodAndAnUnknownBackupAreOneLineAndLeaveNoBackup(TestStack stack) throws Exception {
        CliRun create = CliRun.of(stack.config(), null, "backup", "create", "--dir", backups.toString(), "--stores", "hbase",
                "--hbase-tables", "hbase:meta", "--every", "soon");
        assertThat(create.code()).isEqualTo(2);
        CliRun adminAlone = CliRun.of(stack.config(), null, "backup", "create", "--dir", backups.toString(), "--admin", "127.0.0.1:8095");
        assertThat(adminAlone.code()).isEqualTo(2);
        assertThat(adminAlone.err()).contains("--admin goes with --every");
        CliRun badAdmin = CliRun.of(stack.config(), null, "backup", "create", "--dir", backups.toString(), "--every", "1h", "--admin", "nowhere");
        assertThat(badAdmin.code()).isEqualTo(2);
        assertThat(badAdmin.err()).contains("--admin takes HOST:PORT, not 'nowhere'");
        CliRun missing = CliRun.of(stack.config(), null, "backup", "restore", "20000101T000000Z", "--dir", backups.toString(), "--store", "mysql");
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err().strip()).contains("no backup 20000101T000000Z").doesNotContain("\n");
        assertThat(CliRun.of(stack.config(), null, "backup", "list", "--dir", backups.toString()).out()).contains("no backups in");
    }

    // ---- helpers

    private String onlyBackup() throws Exception {
        try (var dirs = Files.list(backups)) {
            List<Path> all = dirs.filter(Files::isDirectory).toList();
            assertThat(all).hasSize(1);
            assertThat(all.get(0).resolve("manifest.json")).exists();
            String manifest = Files.readString(all.get(0).resolve("manifest.json"));
            assertThat(manifest).contains("\"kafkaOffsets\"");
            return all.get(0).getFileName().toString();
        }
    }

    private static PinfeedConfig privateShards(TestStack stack) {
        return PrivateShardMap.config(stack, "backup", "4096-4303:mysql001");
    }

    private static Connection admin(TestStack stack) throws SQLException {
        return PrivateShardMap.admin(stack, "mysql001");
    }

    private static String single(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).as(sql).isTrue();
            return rs.getString(1);
        }
    }

    private static Map<String, String> rows(org.apache.hadoop.hbase.client.Connection c, TableName table) throws Exception {
        Map<String, String> out = new TreeMap<>();
        try (Table t = c.getTable(table); ResultScanner scanner = t.getScanner(new Scan())) {
            for (Result r : scanner) out.put(Bytes.toString(r.getRow()), Bytes.toString(r.value()));
        }
        return out;
    }
}
