package dev.pinfeed.feedstore.hbase;

import dev.pinfeed.config.PinfeedConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.hbase.client.Connection;

/**
 * Connections to the home cluster of each stage ({@link HBaseLayout}): what a writer (feed-worker, the operators'
 * commands, tests) opens to write the pools on their cluster and the materialized feed on its own. One connection
 * per distinct cluster: both stages on one cluster share it. Never the stages' standbys: they are written by
 * replication alone. Closes the connections it opened.
 */
public final class HBaseStages implements AutoCloseable {

    private final HBaseLayout layout;
    private final Map<String, Connection> connections;

    private HBaseStages(HBaseLayout layout, Map<String, Connection> connections) {
        this.layout = layout;
        this.connections = connections;
    }

    /** Opens the home clusters of both stages with the layout of {@code config}. */
    public static HBaseStages connect(PinfeedConfig config) {
        HBaseLayout layout = HBaseLayout.from(config);
        Map<String, Connection> opened = new LinkedHashMap<>();
        try {
            for (HBaseStage stage : HBaseStage.values()) {
                String cluster = layout.home(stage);
                if (!opened.containsKey(cluster)) opened.put(cluster, HBaseClusters.connect(config, cluster));
            }
        } catch (RuntimeException e) {
            opened.values().forEach(HBaseStages::closeQuietly);
            throw e;
        }
        return new HBaseStages(layout, opened);
    }

    public HBaseLayout layout() {
        return layout;
    }

    /** The name of the cluster {@code stage} lives on ({@link HBaseClusters#PRIMARY} or {@link HBaseClusters#STANDBY}). */
    public String cluster(HBaseStage stage) {
        return layout.home(stage);
    }

    /** The connection to the cluster {@code stage} lives on. */
    public Connection connection(HBaseStage stage) {
        return connections.get(layout.home(stage));
    }

    /** The clusters opened and their connections (one or two). */
    public Map<String, Connection> clusters() {
        return Map.copyOf(connections);
    }

    /** A writable pool store on the pools' cluster (the caller closes it). */
    public HBasePoolStore pools() {
        return new HBasePoolStore(connection(HBaseStage.POOLS), cluster(HBaseStage.POOLS));
    }

    /** A read-only pool store on the pools' cluster (a write throws). */
    public HBasePoolStore readOnlyPools() {
        return HBasePoolStore.readOnly(connection(HBaseStage.POOLS), cluster(HBaseStage.POOLS));
    }

    /** The materialized feed on its cluster. */
    public HBaseMaterializedFeedStore materializedFeed() {
        return new HBaseMaterializedFeedStore(connection(HBaseStage.MATERIALIZED), cluster(HBaseStage.MATERIALIZED));
    }

    /** A readiness probe of the cluster {@code stage} lives on ({@link HBaseClusters#ping}). */
    public void ping(HBaseStage stage) {
        HBaseClusters.ping(connection(stage), cluster(stage));
    }

    @Override
    public void close() {
        connections.values().forEach(HBaseStages::closeQuietly);
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (Exception ignored) { // closing on the way out: nothing left to do about it
        }
    }
}
