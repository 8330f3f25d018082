package dev.pinfeed.idallocator.mysql;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.idallocator.IdAllocationException;
import dev.pinfeed.idallocator.LocalIdBlock;
import dev.pinfeed.idallocator.SequenceStore;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.mysqlshards.ShardDataSources;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.function.Supplier;

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

    private final ShardDataSources sources;

    /** On the configured shard map ({@code mysql.shards}), fixed for the life of the process. */
    public static MysqlSequenceStore from(PinfeedConfig config) {
        return new MysqlSequenceStore(ShardDataSources.from(config, "ids", 4));
    }

    /** On {@code shardMap} as it is at each lease (the live {@code MysqlShardConfig}): a failover reaches the next lease. */
    public static MysqlSequenceStore from(PinfeedConfig config, Supplier<MysqlShardMap> shardMap) {
        return new MysqlSequenceStore(ShardDataSources.from(config, shardMap, "ids", 4, Map.of()));
    }

    /** Leases through {@code sources} (autocommit pools: a lease must commit before its IDs are handed out), and closes them. */
    public MysqlSequenceStore(ShardDataSources sources) {
        this.sources = sources;
    }

    @Override
    public LocalIdBlock lease(int shard, int typeId, int blockSize) {
        SequenceStore.checkLease(shard, typeId, blockSize);
        String host = sources.hostOf(shard);
        String database = MysqlShardMap.databaseName(shard);
        try (Connection connection = sources.forHost(host).getConnection()) {
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
            String what = e.getErrorCode() == ER_BAD_DB ? "database " + database + " does not exist" : e.getMessage() + ShardDataSources.rootCause(e);
            throw new IdAllocationException("leasing " + blockSize + " local ids of shard " + shard + " type " + typeId
                    + " from " + host + " (" + sources.master(host) + ") failed: " + what, e);
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

    @Override
    public void close() {
        sources.close();
    }
}
