package dev.pinfeed.mysqlshards.query;

import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.mysqlshards.ShardDataSources;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The statements of one host transaction ({@link ShardedDb#inTransaction}). {@link #add} queues a
 * write; queued writes with the same SQL text go to the server as one JDBC batch at {@link #flush}
 * (and at commit). {@link #execute} and {@link #select} run at once (after flushing the queue, so
 * they see the queued writes).
 */
public final class HostWriter {

    private final Connection connection;
    private final String host;
    private final ShardDataSources sources;
    private final Map<String, List<List<Object>>> queued = new LinkedHashMap<>();

    HostWriter(Connection connection, String host, ShardDataSources sources) {
        this.connection = connection;
        this.host = host;
        this.sources = sources;
    }

    public String host() {
        return host;
    }

    public void add(int shard, Write statement) {
        check(shard);
        List<Object> params = new ArrayList<>();
        String sql = statement.render(MysqlShardMap.databaseName(shard), params);
        queued.computeIfAbsent(sql, k -> new ArrayList<>()).add(params);
    }

    /** Runs a write now; returns the rows it changed (MySQL counts an upsert that updated as 2). */
    public int execute(int shard, Write statement) throws SQLException {
        check(shard);
        flush();
        List<Object> params = new ArrayList<>();
        String sql = statement.render(MysqlShardMap.databaseName(shard), params);
        try (PreparedStatement ps = ShardedDb.prepare(connection, sql, params)) {
            return ps.executeUpdate();
        }
    }

    /** A read inside the transaction (sees its own writes). */
    public List<Row> select(int shard, Select query) throws SQLException {
        check(shard);
        flush();
        return ShardedDb.run(connection, shard, query);
    }

    public void flush() throws SQLException {
        for (Map.Entry<String, List<List<Object>>> e : queued.entrySet()) {
            try (PreparedStatement ps = connection.prepareStatement(e.getKey())) {
                for (List<Object> params : e.getValue()) {
                    ShardedDb.bind(ps, params);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        }
        queued.clear();
    }

    private void check(int shard) {
        String owner = sources.hostOf(shard);
        if (!owner.equals(host)) throw new IllegalArgumentException("shard " + shard + " lives on " + owner + ", not " + host);
    }
}
