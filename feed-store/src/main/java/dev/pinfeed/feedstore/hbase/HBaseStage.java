package dev.pinfeed.feedstore.hbase;

import org.apache.hadoop.hbase.TableName;

/**
 * The two stages of the home feed kept in HBase (seed 002), each in its own table and, by {@link HBaseLayout},
 * on its own cluster: the pools (written at fan-out volume by feed-worker) and the materialized feed (read and
 * written on the user-facing path by feed-service). Each has a replication heartbeat cell in its table
 * ({@link PoolKeys} / {@link MaterializedKeys} own the rows), so each stage's standby staleness is measured apart.
 */
public enum HBaseStage {
    POOLS("pools", HBaseClusters.POOLS, PoolKeys.FAMILY, PoolKeys.HEARTBEAT_ROW, PoolKeys.HEARTBEAT),
    MATERIALIZED("materialized_feed", HBaseClusters.MATERIALIZED_FEED, MaterializedKeys.FAMILY, MaterializedKeys.HEARTBEAT_ROW,
            MaterializedKeys.HEARTBEAT);

    private final String label;
    private final TableName table;
    final byte[] family;
    final byte[] heartbeatRow;
    final byte[] heartbeatColumn;

    HBaseStage(String label, TableName table, byte[] family, byte[] heartbeatRow, byte[] heartbeatColumn) {
        this.label = label;
        this.table = table;
        this.family = family;
        this.heartbeatRow = heartbeatRow;
        this.heartbeatColumn = heartbeatColumn;
    }

    /** The table's short name ({@code pools}, {@code materialized_feed}), as metrics and logs name the stage. */
    public String label() {
        return label;
    }

    public TableName table() {
        return table;
    }

    /** The stage whose table is {@code table}. */
    public static HBaseStage of(TableName table) {
        for (HBaseStage s : values()) if (s.table.equals(table)) return s;
        throw new IllegalArgumentException("no stage keeps " + table);
    }
}
