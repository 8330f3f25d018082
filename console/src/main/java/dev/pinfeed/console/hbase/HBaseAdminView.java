package dev.pinfeed.console.hbase;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.console.pipeline.PipelineSnapshot.Replication;
import dev.pinfeed.console.pipeline.PipelineSources.ClusterSize;
import dev.pinfeed.console.pipeline.PipelineSources.HBaseCluster;
import dev.pinfeed.console.pipeline.PipelineSources.HBaseView;
import dev.pinfeed.feedstore.hbase.HBaseClusters;
import dev.pinfeed.feedstore.hbase.HBaseLayout;
import dev.pinfeed.feedstore.hbase.HBaseStage;
import java.io.IOException;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.replication.ReplicationLoadSource;
import org.apache.hadoop.hbase.replication.ReplicationPeerDescription;

/**
 * The two HBase clusters through their Admin API (client settings that fail fast: {@link HBaseClusters#clientConfiguration}):
 * live region servers and regions, and on each the replication peer shipping its stages to the other (on the primary
 * {@value #PEER_KEY}, default {@value #DEFAULT_PEER}; on the standby cluster {@value #PEER_BACK_KEY}, default
 * {@value #DEFAULT_PEER_BACK}: the peers {@code ./pinfeed provision} adds) with what its region servers report shipping:
 * the largest lag and the summed WAL queue. Which stage lives where comes from the configuration ({@link HBaseLayout}).
 * Connections open on first use, so a cluster down at start delays nothing.
 */
public final class HBaseAdminView implements HBaseView, AutoCloseable {

    public static final String PEER_KEY = "console.hbase.replication-peer";
    public static final String DEFAULT_PEER = "standby";
    public static final String PEER_BACK_KEY = "console.hbase.replication-peer-back";
    public static final String DEFAULT_PEER_BACK = "primary";

    /** One cluster's connection, opened (again) on use; locked apart, so a cluster slow to connect holds up only its own probes. */
    private static final class Cluster {
        private final String quorum;
        private Connection connection;

        Cluster(String quorum) {
            this.quorum = quorum;
        }

        synchronized Connection connection() throws IOException {
            if (connection == null || connection.isClosed() || connection.isAborted()) {
                connection = ConnectionFactory.createConnection(HBaseClusters.clientConfiguration(quorum));
            }
            return connection;
        }

        synchronized void close() {
            try {
                if (connection != null) connection.close();
            } catch (IOException | RuntimeException e) {
                // Stopping: nothing to do about it.
            }
            connection = null;
        }
    }

    private final Map<HBaseCluster, Cluster> clusters = new EnumMap<>(HBaseCluster.class);
    private final Map<HBaseCluster, String> peers = new EnumMap<>(HBaseCluster.class);
    private final Map<String, HBaseCluster> stages = new java.util.LinkedHashMap<>();

    public HBaseAdminView(PinfeedConfig config) {
        clusters.put(HBaseCluster.PRIMARY, new Cluster(config.hbasePrimaryZookeeper()));
        clusters.put(HBaseCluster.STANDBY, new Cluster(config.hbaseStandbyZookeeper()));
        peers.put(HBaseCluster.PRIMARY, config.get(PEER_KEY, DEFAULT_PEER));
        peers.put(HBaseCluster.STANDBY, config.get(PEER_BACK_KEY, DEFAULT_PEER_BACK));
        HBaseLayout layout = HBaseLayout.from(config);
        for (HBaseStage stage : HBaseStage.values()) {
            stages.put(stage.label(), layout.home(stage).equals(HBaseClusters.STANDBY) ? HBaseCluster.STANDBY : HBaseCluster.PRIMARY);
        }
    }

    @Override
    public ClusterSize size(HBaseCluster cluster) throws IOException {
        try (Admin admin = connection(cluster).getAdmin()) {
            ClusterMetrics m = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
            return new ClusterSize(m.getLiveServerMetrics().size(), m.getRegionCount());
        }
    }

    @Override
    public Map<String, HBaseCluster> stages() {
        return Map.copyOf(stages);
    }

    @Override
    public Replication replication(HBaseCluster from) throws IOException {
        String peer = peers.get(from);
        try (Admin admin = connection(from).getAdmin()) {
            Optional<ReplicationPeerDescription> found = admin.listReplicationPeers().stream().filter(d -> d.getPeerId().equals(peer)).findFirst();
            if (found.isEmpty()) {
                return new Replication(peer, "absent", null, null, "the " + from.name().toLowerCase(java.util.Locale.ROOT)
                        + " cluster has no replication peer '" + peer + "'");
            }
            String state = found.get().isEnabled() ? "enabled" : "disabled";
            Long lag = null;
            long queue = 0;
            ClusterMetrics m = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
            for (ServerMetrics server : m.getLiveServerMetrics().values()) {
                for (ReplicationLoadSource source : server.getReplicationLoadSourceMap().getOrDefault(peer, List.of())) {
                    lag = Math.max(lag == null ? 0 : lag, source.getReplicationLag());
                    queue += source.getSizeOfLogQueue();
                }
            }
            return lag == null
                    ? new Replication(peer, state, null, null, "no region server reports shipping to '" + peer + "' yet")
                    : new Replication(peer, state, lag, queue, null);
        }
    }

    private Connection connection(HBaseCluster cluster) throws IOException {
        return clusters.get(cluster).connection();
    }

    @Override
    public void close() {
        clusters.values().forEach(Cluster::close);
    }
}
