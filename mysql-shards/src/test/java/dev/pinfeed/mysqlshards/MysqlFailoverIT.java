package dev.pinfeed.mysqlshards;

import static dev.pinfeed.infra.stacktestkit.Waits.awaitAcks;
import static dev.pinfeed.infra.stacktestkit.Waits.pause;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.infra.stack.SpareServer;
import dev.pinfeed.infra.stacktestkit.ChildJvm;
import dev.pinfeed.infra.stacktestkit.SpareZooKeeper;
import dev.pinfeed.mysqlshards.MysqlFailover;
import dev.pinfeed.mysqlshards.MysqlShardConfig;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.mysqlshards.ShardDataSources;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failover of a MySQL shard host: its master is killed with kill -9 under a write load, {@link MysqlFailover}
 * promotes its replica and points the live shard map at it, and the writer — a {@link ShardDataSources}
 * watching the map, as every service does — goes on writing to the new master without a restart.
 * Every write acknowledged before or after the kill is on the new master (semi-synchronous
 * replication, as the launcher runs it). Runs a MariaDB pair and a ZooKeeper of its own on spare ports,
 * never the shared stack's servers.
 */
class MysqlFailoverIT {

    private static final String HOST = "mysqlfo";
    private static final int SHARDS = 4;
    private static final String ADMIN = "pinfeed_admin";

    @TempDir Path home;

    @Test
    void aKilledMasterIsFailedOverAndWritesGoOnWithNothingAcknowledgedLost() throws Exception {
        PinfeedConfig bundled = PinfeedConfig.bundledLocal();
        SpareServer master = SpareServer.mariaDb(home, "failover-it-master", new HostPort("127.0.0.1", ChildJvm.freePort()), 901, false);
        SpareServer replica = SpareServer.mariaDb(home, "failover-it-replica", new HostPort("127.0.0.1", ChildJvm.freePort()), 902, true);
        SpareZooKeeper zkServer = SpareZooKeeper.start(home.resolve("zk").toFile());
        String user = bundled.mysqlUser();
        String password = bundled.mysqlPassword();
        AtomicBoolean writing = new AtomicBoolean(true);
        Set<Long> acknowledged = new ConcurrentSkipListSet<>();
        AtomicInteger refused = new AtomicInteger();
        Thread writer = null;
        try (CuratorFramework zk = zkServer.curator()) {
            master.start();
            replica.start();
            master.createAccounts(user, password, ADMIN, ADMIN);
            replica.follow(master);
            StringBuilder schema = new StringBuilder();
            for (int s = 0; s < SHARDS; s++) {
                schema.append("CREATE DATABASE IF NOT EXISTS ").append(MysqlShardMap.databaseName(s)).append(';')
                        .append("CREATE TABLE IF NOT EXISTS ").append(MysqlShardMap.databaseName(s))
                        .append(".acks (id BIGINT PRIMARY KEY, written_at BIGINT NOT NULL);");
            }
            master.sql(schema.toString());

            String znode = "/config/failover-it";
            MysqlShardMap map = MysqlShardMap.of(List.of(new MysqlShardMap.Range(0, SHARDS - 1, HOST, master.address(), replica.address())));
            MysqlShardConfig.provision(zk, znode, map, map.addresses());
            try (MysqlShardConfig live = MysqlShardConfig.watch(zk, znode, map, map.addresses());
                 ShardDataSources shards = new ShardDataSources(live, bundled::mysqlJdbcUrl, user, password, "failover-it", 2, Map.of("connectTimeout", "1000"))) {
                writer = new Thread(() -> {
                    long id = 1;
                    while (writing.get()) {
                        int shard = (int) (id % SHARDS);
                        try (Connection c = shards.forShard(shard).getConnection();
                             PreparedStatement ps = c.prepareStatement("INSERT INTO " + MysqlShardMap.databaseName(shard)
                                     + ".acks (id, written_at) VALUES (?, ?) ON DUPLICATE KEY UPDATE id = id")) {
                            ps.setLong(1, id);
                            ps.setLong(2, System.currentTimeMillis());
                            ps.executeUpdate(); // autocommit: returned = acknowledged
                            acknowledged.add(id);
                            id++;
                        } catch (SQLException | RuntimeException e) {
                            refused.incrementAndGet(); // the same id again: an idempotent retry
                            pause(50);
                        }
                    }
                }, "failover-it-writer");
                writer.start();
                awaitAcks(acknowledged, 300, Duration.ofSeconds(60));
                assertThat(master.sql("SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS "
                        + "WHERE VARIABLE_NAME IN ('RPL_SEMI_SYNC_MASTER_STATUS', 'RPL_SEMI_SYNC_MASTER_CLIENTS') ORDER BY VARIABLE_NAME").trim())
                        .as("commits wait for the replica (semi-sync on, one semi-sync replica)").isEqualTo("1\nON");

                master.kill();
                long killedAt = System.nanoTime();
                int beforeFailover = acknowledged.size();
                List<String> steps = new ArrayList<>();
                MysqlFailover.Report report = new MysqlFailover(bundled::mysqlJdbcUrl, ADMIN, ADMIN, Duration.ofSeconds(30), steps::add)
                        .failover(zk, znode, HOST, map.addresses());
                long failedOverAt = System.nanoTime();

                assertThat(report.fencedOldMaster()).as("the old master was dead").isFalse();
                assertThat(report.newMaster()).isEqualTo(replica.address());
                awaitAcks(acknowledged, beforeFailover + 300, Duration.ofSeconds(60));
                long firstAfter = System.nanoTime();
                assertThat(live.current().master(HOST)).as("the watching service's map").isEqualTo(replica.address());
                assertThat(shards.poolAddresses()).as("pools follow the map").contains(replica.address());
                writing.set(false);
                writer.join(10_000);

                Set<Long> stored = new TreeSet<>();
                try (Connection c = DriverManager.getConnection(bundled.mysqlJdbcUrl(replica.address()), credentials(user, password));
                     Statement st = c.createStatement()) {
                    for (int s = 0; s < SHARDS; s++) {
                        try (ResultSet rs = st.executeQuery("SELECT id FROM " + MysqlShardMap.databaseName(s) + ".acks")) {
                            while (rs.next()) stored.add(rs.getLong(1));
                        }
                    }
                    try (ResultSet rs = st.executeQuery("SELECT @@GLOBAL.read_only")) {
                        rs.next();
                        assertThat(rs.getInt(1)).as("the promoted replica takes writes").isZero();
                    }
                }
                System.err.printf(Locale.ROOT, "[MysqlFailoverIT] %d writes acknowledged (%d before the kill's failover), %d refused while "
                                + "no master answered; failover %.1f s after the kill (%s); writes again %.1f s after the kill; %d rows stored%n",
                        acknowledged.size(), beforeFailover, refused.get(), (failedOverAt - killedAt) / 1e9, String.join("; ", steps),
                        (firstAfter - killedAt) / 1e9, stored.size());
                assertThat(acknowledged).as("acknowledged writes missing on the new master").allMatch(stored::contains);
            }
        } finally {
            writing.set(false);
            if (writer != null) writer.join(10_000);
            replica.stop(Duration.ofSeconds(10));
            master.stop(Duration.ofSeconds(10));
            zkServer.close();
        }
    }

    private static Properties credentials(String user, String password) {
        Properties p = new Properties();
        p.put("user", user);
        p.put("password", password);
        return p;
    }
}
