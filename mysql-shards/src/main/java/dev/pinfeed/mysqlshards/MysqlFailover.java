package dev.pinfeed.mysqlshards;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.PinfeedConfig.ReplicatedHost;
import dev.pinfeed.mysqlshards.MysqlShardMap.HostAddresses;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.curator.framework.CuratorFramework;

/**
 * Promotes a MySQL shard host's replica to master and points the live shard map at it, so every
 * service watching the map ({@link MysqlShardConfig}) writes to it without a restart.
 *
 * <p>In order: fence the old master if it still answers ({@code read_only=ON}, so no write lands
 * there after the switch) and take its binlog position; wait until the replica has applied
 * everything — up to that position, or, with the master gone, everything its relay log received;
 * stop replication there and open the replica for writes; then compare-and-set the znode. With
 * semi-synchronous replication (the local stack's masters acknowledge a commit only once the replica
 * has it, {@code AFTER_SYNC}), nothing a client was told is committed can be missing on the replica.
 *
 * <p>Runs with an administrative account ({@code mysql.admin.user} / {@code mysql.admin.password}):
 * the application's account cannot change {@code read_only} or replication.
 */
public final class MysqlFailover {

    /** What a failover did. {@code fencedOldMaster} is false when the old master did not answer (down). */
    public record Report(String host, HostPort oldMaster, HostPort newMaster, boolean fencedOldMaster, String appliedGtid,
                         Duration took, MysqlShardMap map) {}

    private final Function<HostPort, String> jdbcUrl;
    private final String user;
    private final String password;
    private final Duration catchUp;
    private final Consumer<String> progress;

    /**
     * @param jdbcUrl  a host's JDBC URL ({@link PinfeedConfig#mysqlJdbcUrl}: TLS as configured)
     * @param catchUp  how long the replica may take to apply what it received before the failover gives up
     * @param progress one line per step, for the operator
     */
    public MysqlFailover(Function<HostPort, String> jdbcUrl, String user, String password, Duration catchUp, Consumer<String> progress) {
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.password = password;
        this.catchUp = catchUp;
        this.progress = progress;
    }

    /** With the administrative account of {@code config} ({@code mysql.admin.user}, {@code mysql.admin.password}). */
    public static MysqlFailover from(PinfeedConfig config, Consumer<String> progress) {
        return new MysqlFailover(config::mysqlJdbcUrl, config.require("mysql.admin.user"), config.get("mysql.admin.password", ""), Duration.ofSeconds(60), progress);
    }

    /**
     * Fails {@code host} over to its replica, as the map in {@code znode} places them. Throws
     * {@link IllegalStateException} saying which step failed; the map is changed only by the last step,
     * so a failover that throws leaves the services where they were (the old master perhaps fenced:
     * {@code SET GLOBAL read_only=OFF} on it undoes that).
     */
    public Report failover(CuratorFramework zk, String znode, String host, HostAddresses addresses) throws Exception {
        long t0 = System.nanoTime();
        MysqlShardMap before = MysqlShardMap.parse(new String(zk.getData().forPath(znode), StandardCharsets.UTF_8), addresses);
        ReplicatedHost pair = before.host(host);
        if (pair.replica() == null) throw new IllegalStateException("MySQL host '" + host + "' has no replica in the shard map: nothing to promote");
        HostPort oldMaster = pair.master();
        HostPort replica = pair.replica();

        String masterPosition = fence(oldMaster);
        progress.accept(masterPosition == null ? "old master " + oldMaster + " does not answer: promoting what the replica received"
                : "old master " + oldMaster + " is read-only at GTID " + masterPosition);
        String applied;
        try (Connection r = connect(replica)) {
            applied = masterPosition != null ? waitForGtid(r, masterPosition) : waitForRelayLog(r);
            progress.accept("replica " + replica + " applied everything (GTID " + applied + ")");
            try (Statement st = r.createStatement()) {
                st.execute("STOP SLAVE");
                st.execute("RESET SLAVE ALL");
                st.execute("SET GLOBAL read_only = OFF");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("promoting the replica " + replica + " of " + host + " failed: " + e.getMessage(), e);
        }
        progress.accept("replica " + replica + " is now a writable master");
        MysqlShardMap after = MysqlShardConfig.update(zk, znode, addresses, map -> map.promotingReplicaOf(host));
        progress.accept("shard map " + znode + ": shards of " + host + " now on " + replica);
        return new Report(host, oldMaster, replica, masterPosition != null, applied, Duration.ofNanos(System.nanoTime() - t0), after);
    }

    /** Makes the old master read-only and returns its binlog position, or null when it does not answer. */
    private String fence(HostPort master) {
        try (Connection m = connect(master); Statement st = m.createStatement()) {
            st.execute("SET GLOBAL read_only = ON");
            try (ResultSet rs = st.executeQuery("SELECT @@GLOBAL.gtid_binlog_pos")) {
                rs.next();
                return rs.getString(1);
            }
        } catch (SQLException unreachable) {
            return null;
        }
    }

    private String waitForGtid(Connection replica, String position) throws SQLException {
        progress.accept("waiting (at most " + catchUp.toSeconds() + " s) for the replica to apply up to the master's GTID " + position);
        try (PreparedStatement ps = replica.prepareStatement("SELECT MASTER_GTID_WAIT(?, ?)")) {
            ps.setString(1, position);
            ps.setDouble(2, catchUp.toMillis() / 1000.0);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                if (rs.getInt(1) != 0) {
                    throw new IllegalStateException("the replica did not reach the master's GTID " + position + " within " + catchUp.toSeconds() + " s");
                }
            }
        }
        return gtidCurrentPos(replica);
    }

    /** While a wait lasts, a line this often says how far it is. */
    private static final long NOTE_EVERY_NANOS = 2_000_000_000L;

    /** The master is gone: wait until the SQL thread has applied all the IO thread wrote to the relay log. */
    private String waitForRelayLog(Connection replica) throws SQLException {
        long start = System.nanoTime();
        long deadline = start + catchUp.toNanos();
        long nextNote = start + NOTE_EVERY_NANOS;
        while (true) {
            try (Statement st = replica.createStatement(); ResultSet rs = st.executeQuery("SHOW SLAVE STATUS")) {
                if (!rs.next()) throw new IllegalStateException("the replica is not replicating (SHOW SLAVE STATUS is empty)");
                boolean applied = rs.getString("Master_Log_File").equals(rs.getString("Relay_Master_Log_File"))
                        && rs.getLong("Read_Master_Log_Pos") == rs.getLong("Exec_Master_Log_Pos");
                if (applied) return gtidCurrentPos(replica);
                if (System.nanoTime() > nextNote) {
                    nextNote = System.nanoTime() + NOTE_EVERY_NANOS;
                    progress.accept(String.format(Locale.ROOT, "waiting for the replica to apply its relay log: %s at %d of %s at %d, %.0f s of %d s",
                            rs.getString("Relay_Master_Log_File"), rs.getLong("Exec_Master_Log_Pos"), rs.getString("Master_Log_File"),
                            rs.getLong("Read_Master_Log_Pos"), (System.nanoTime() - start) / 1e9, catchUp.toSeconds()));
                }
                String sqlError = rs.getString("Last_SQL_Error");
                if (sqlError != null && !sqlError.isBlank()) throw new IllegalStateException("the replica's SQL thread failed: " + sqlError);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the replica did not apply its relay log within " + catchUp.toSeconds() + " s");
            }
            sleep(100);
        }
    }

    private static String gtidCurrentPos(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT @@GLOBAL.gtid_current_pos")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private Connection connect(HostPort host) throws SQLException {
        Properties p = new Properties();
        p.put("user", user);
        p.put("password", password);
        p.put("connectTimeout", "2000");
        p.put("socketTimeout", Long.toString(catchUp.toMillis() + 10_000));
        return DriverManager.getConnection(jdbcUrl.apply(host), p);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the replica", e);
        }
    }
}
