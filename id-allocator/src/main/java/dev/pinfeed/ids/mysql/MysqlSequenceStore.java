package dev.pinfeed.ids.mysql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.ShardMap;
import dev.pinfeed.ids.IdAllocationException;
import dev.pinfeed.ids.LocalIdBlock;
import dev.pinfeed.ids.SequenceStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Leases local-ID blocks from each shard's own database ({@code dbNNNNN.id_sequences}) on the
 * master of the host the shard map names — never a replica, whose lag could hand a range out twice.
 *
 * <p>One statement advances the counter atomically under InnoDB's row lock and, through
 * {@code LAST_INSERT_ID(expr)}, leaves the new value on this connection only, so concurrent
 * processes each get their own range. The lease commits (autocommit) before any ID of it is used.
 */
public final class MysqlSequenceStore implements SequenceStore {

    static final String CREATE_TABLE = "CREATE TABLE IF NOT EXISTS %s.id_sequences ("
            + "type_id SMALLINT UNSIGNED NOT NULL PRIMARY KEY, next_local BIGINT UNSIGNED NOT NULL) ENGINE=InnoDB";
    /** Inserts the first block [1, 1 + n) or advances an existing counter by n. */
    static final String ADVANCE = "INSERT INTO %s.id_sequences (type_id, next_local) VALUES (?, ?) "
            + "ON DUPLICATE KEY UPDATE next_local = LAST_INSERT_ID(next_local + ?)";
    private static final int ER_BAD_DB = 1049;
    private static final int ER_NO_SUCH_TABLE = 1146;

    private final ShardMap shardMap;
    private final Map<String, HostPort> masters;
    private final String user;
    private final String password;
    private final ConcurrentHashMap<String, HikariDataSource> pools = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public MysqlSequenceStore(ShardMap shardMap, Map<String, HostPort> masters, String user, String password) {
        this.shardMap = shardMap;
        this.masters = Map.copyOf(masters);
        this.user = user;
        this.password = password;
        for (ShardMap.Range r : shardMap.ranges()) {
            if (!this.masters.containsKey(r.host())) {
                throw new IllegalStateException("shard map places shards " + r.first() + "-" + r.last()
                        + " on host '" + r.host() + "' which has no configured master");
            }
        }
    }

    public static MysqlSequenceStore from(PinfeedConfig config) {
        Map<String, HostPort> masters = new LinkedHashMap<>();
        for (PinfeedConfig.ReplicatedHost host : config.mysqlHosts()) masters.put(host.name(), host.master());
        return new MysqlSequenceStore(ShardMap.from(config), masters, config.mysqlUser(), config.mysqlPassword());
    }

    @Override
    public LocalIdBlock lease(int shard, int typeId, int blockSize) {
        SequenceStore.checkLease(shard, typeId, blockSize);
        String host = shardMap.hostOf(shard);
        String database = ShardMap.databaseName(shard);
        try (Connection connection = pool(host).getConnection()) {
            try {
                return advance(connection, database, shard, typeId, blockSize);
            } catch (SQLException e) {
                if (e.getErrorCode() != ER_NO_SUCH_TABLE) throw e;
                // The stack creates the table; if this shard's database predates it, create it and retry once.
                try (Statement st = connection.createStatement()) {
                    st.execute(String.format(CREATE_TABLE, database));
                }
                return advance(connection, database, shard, typeId, blockSize);
            }
        } catch (SQLException e) {
            String what = e.getErrorCode() == ER_BAD_DB ? "database " + database + " does not exist" : e.getMessage() + rootCause(e);
            throw new IdAllocationException("leasing " + blockSize + " local ids of shard " + shard + " type " + typeId
                    + " from " + host + " (" + masters.get(host) + ") failed: " + what, e);
        } catch (IllegalArgumentException e) {
            throw new IdAllocationException("the store answered an impossible block for shard " + shard + " type " + typeId
                    + ": " + e.getMessage(), e);
        }
    }

    private static LocalIdBlock advance(Connection connection, String database, int shard, int typeId, int blockSize)
            throws SQLException {
        try (PreparedStatement advance = connection.prepareStatement(String.format(ADVANCE, database))) {
            advance.setInt(1, typeId);
            advance.setLong(2, 1L + blockSize);
            advance.setLong(3, blockSize);
            int affected = advance.executeUpdate();
            if (affected == 1) return LocalIdBlock.leased(shard, typeId, 1, blockSize); // inserted: the first block
            if (affected != 2) throw new SQLException("advancing the id sequence affected " + affected + " rows, expected 1 or 2");
        }
        try (Statement st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT LAST_INSERT_ID()")) {
            rs.next();
            long nextLocal = rs.getLong(1);
            return LocalIdBlock.leased(shard, typeId, nextLocal - blockSize, blockSize);
        }
    }

    /** Pool timeouts hide why no connection could be made (refused, auth); name it. */
    private static String rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        return root == e ? "" : " (" + root.getMessage() + ")";
    }

    private HikariDataSource pool(String host) {
        if (closed) throw new IdAllocationException("sequence store is closed");
        return pools.computeIfAbsent(host, h -> {
            HostPort master = masters.get(h);
            HikariConfig c = new HikariConfig();
            c.setPoolName("ids-" + h);
            c.setJdbcUrl(PinfeedConfig.mysqlJdbcUrl(master));
            c.setUsername(user);
            c.setPassword(password);
            c.setAutoCommit(true); // a lease must be committed before its IDs are handed out
            c.setMaximumPoolSize(4);
            c.setMinimumIdle(0);
            c.setConnectionTimeout(5_000);
            c.setInitializationFailTimeout(-1); // report an unreachable host per lease, not at construction
            return new HikariDataSource(c);
        });
    }

    @Override
    public void close() {
        closed = true;
        pools.values().forEach(HikariDataSource::close);
        pools.clear();
    }
}
