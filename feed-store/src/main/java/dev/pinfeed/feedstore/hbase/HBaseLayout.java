package dev.pinfeed.feedstore.hbase;

import dev.pinfeed.config.PinfeedConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which HBase cluster each stage of the home feed lives on (seed 002: "two HBase clusters ... save data to
 * different HBase clusters at different stages"). The two clusters keep their connection keys and names:
 * {@code hbase.primary.zookeeper} is the cluster {@value HBaseClusters#PRIMARY}, {@code hbase.standby.zookeeper}
 * the cluster {@value HBaseClusters#STANDBY}. A stage's <em>home</em> takes all its writes and answers its reads
 * first; the other cluster is that stage's hot standby (a table-cfs replication peer on the home ships the
 * stage's table there) and answers its reads when the home fails or is slow.
 *
 * <p>Keys: {@value #POOLS_KEY} (default {@code primary}) and {@value #MATERIALIZED_KEY} (default {@code standby}),
 * each {@code primary} or {@code standby} (or the cluster names {@code hbase-primary} / {@code hbase-standby}).
 * Both on the same cluster is the single-cluster layout (the other cluster a plain replica of both).
 */
public record HBaseLayout(String poolsCluster, String materializedCluster) {

    public static final String POOLS_KEY = "hbase.pools.cluster";
    public static final String MATERIALIZED_KEY = "hbase.materialized.cluster";

    /** The default: pools on the primary, the materialized feed on the standby cluster; each the other's standby. */
    public static final HBaseLayout SPLIT = new HBaseLayout(HBaseClusters.PRIMARY, HBaseClusters.STANDBY);
    /** Both stages on the primary, the standby a replica of both (the layout before the split). */
    public static final HBaseLayout SINGLE = new HBaseLayout(HBaseClusters.PRIMARY, HBaseClusters.PRIMARY);

    public HBaseLayout {
        requireCluster(poolsCluster, POOLS_KEY);
        requireCluster(materializedCluster, MATERIALIZED_KEY);
    }

    public static HBaseLayout from(PinfeedConfig config) {
        return new HBaseLayout(cluster(config.get(POOLS_KEY, "primary"), POOLS_KEY),
                cluster(config.get(MATERIALIZED_KEY, "standby"), MATERIALIZED_KEY));
    }

    /** The cluster that takes the stage's writes and answers its reads first. */
    public String home(HBaseStage stage) {
        return stage == HBaseStage.POOLS ? poolsCluster : materializedCluster;
    }

    /** The cluster the stage's table is replicated to and read from when its home fails or is slow. */
    public String standbyOf(HBaseStage stage) {
        return other(home(stage));
    }

    /** Whether the stages live on different clusters. */
    public boolean split() {
        return !poolsCluster.equals(materializedCluster);
    }

    /** The stages whose home is {@code cluster} (what its replication peer ships to the other cluster). */
    public List<HBaseStage> stagesOn(String cluster) {
        requireCluster(cluster, "cluster");
        List<HBaseStage> out = new ArrayList<>();
        for (HBaseStage s : HBaseStage.values()) if (home(s).equals(cluster)) out.add(s);
        return out;
    }

    /** The other one of the two clusters. */
    public static String other(String cluster) {
        requireCluster(cluster, "cluster");
        return cluster.equals(HBaseClusters.PRIMARY) ? HBaseClusters.STANDBY : HBaseClusters.PRIMARY;
    }

    /** {@code primary}, {@code standby} or a cluster name → the cluster name; anything else names the key. */
    static String cluster(String value, String key) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "primary", HBaseClusters.PRIMARY -> HBaseClusters.PRIMARY;
            case "standby", HBaseClusters.STANDBY -> HBaseClusters.STANDBY;
            default -> throw new IllegalStateException("configuration key '" + key + "': '" + value
                    + "' is not a cluster (primary or standby)");
        };
    }

    private static void requireCluster(String cluster, String what) {
        if (!HBaseClusters.PRIMARY.equals(cluster) && !HBaseClusters.STANDBY.equals(cluster)) {
            throw new IllegalArgumentException(what + ": not a cluster name (" + HBaseClusters.PRIMARY + " or " + HBaseClusters.STANDBY
                    + "): " + cluster);
        }
    }

    @Override
    public String toString() {
        return "pools on " + poolsCluster + ", materialized feed on " + materializedCluster;
    }
}
