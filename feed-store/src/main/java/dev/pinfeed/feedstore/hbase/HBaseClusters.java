package dev.pinfeed.feedstore.hbase;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.StoreUnavailableException;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Table;

/**
 * Connections to the two HBase clusters of seed 002, named by their connection keys: {@value #PRIMARY}
 * ({@code hbase.primary.zookeeper}) and {@value #STANDBY} ({@code hbase.standby.zookeeper}). Which stage lives
 * on which is {@link HBaseLayout}'s (by default the pools on the first, the materialized feed on the second);
 * each cluster is the hot standby of the other's stage (replicated within a few hundred ms; read when the
 * stage's home fails or is slow).
 * Clients fail fast: a call gives up after seconds, not HBase's default minutes, so an outage turns
 * into a retry (writers) or a standby read (feed-service) instead of a hang.
 */
public final class HBaseClusters {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(HBaseClusters.class);

    public static final String PRIMARY = "hbase-primary";
    public static final String STANDBY = "hbase-standby";
    public static final TableName POOLS = TableName.valueOf("pinfeed", "pools");
    public static final TableName MATERIALIZED_FEED = TableName.valueOf("pinfeed", "materialized_feed");

    /** The threads of a connection's batch pool: two region servers' worth of tasks in flight at once. */
    static final int BATCH_THREADS = 32;

    private HBaseClusters() {}

    public static Connection connect(PinfeedConfig config, String cluster) {
        String quorum = zookeeper(config, cluster);
        Connection connection;
        try {
            connection = ConnectionFactory.createConnection(clientConfiguration(quorum));
        } catch (IOException e) {
            throw new StoreUnavailableException(cluster, "cannot connect through ZooKeeper " + quorum + ": " + e.getMessage(), e);
        }
        locateRegions(connection, cluster);
        return connection;
    }

    /** The ZooKeeper quorum of {@code cluster} ({@value #PRIMARY} or {@value #STANDBY}). */
    public static String zookeeper(PinfeedConfig config, String cluster) {
        return switch (cluster) {
            case PRIMARY -> config.hbasePrimaryZookeeper();
            case STANDBY -> config.hbaseStandbyZookeeper();
            default -> throw new IllegalArgumentException("no HBase cluster " + cluster + " (" + PRIMARY + " or " + STANDBY + ")");
        };
    }

    /** The ZooKeeper quorum of the cluster {@code stage} lives on. */
    public static String zookeeper(PinfeedConfig config, HBaseStage stage) {
        return zookeeper(config, HBaseLayout.from(config).home(stage));
    }

    /**
     * Best effort: looks up where every region of pinfeed's tables lives, so the first reads and
     * writes find the locations cached. Without it, a first multi-get of 1 000 rows on a busy 2-core box
     * can spend its whole operation timeout on the meta lookup and fail ("Cannot get replica 0
     * location"), and the process report HBase unavailable. A cluster down at start is not an error
     * here: reads report it when they run.
     */
    private static void locateRegions(Connection connection, String cluster) {
        for (TableName table : new TableName[] {POOLS, MATERIALIZED_FEED}) {
            try (RegionLocator locator = connection.getRegionLocator(table)) {
                locator.getAllRegionLocations();
            } catch (IOException | RuntimeException e) {
                LOG.info("{}: could not locate the regions of {} yet ({}); the first calls will", cluster, table, HBasePoolStore.firstLine(e.getMessage()));
            }
        }
    }

    /** A row no table layout uses (every pools and materialized_feed row is at least 9 bytes): what {@link #ping} reads. */
    private static final byte[] PROBE_ROW = {'p', 'i', 'n', 'g'};

    /**
     * A readiness probe: one cheap read of the pools table on {@code cluster} through {@code connection}
     * (reaches ZooKeeper, meta and the region server). Throws {@link StoreUnavailableException} naming
     * the cluster when it does not answer.
     */
    public static void ping(Connection connection, String cluster) {
        try (Table t = connection.getTable(POOLS)) {
            t.exists(new Get(PROBE_ROW));
        } catch (IOException e) {
            throw new StoreUnavailableException(cluster, "reading " + POOLS + " failed: " + HBasePoolStore.firstLine(e.getMessage()), e);
        }
    }

    /**
     * Client settings that fail fast (seconds, not HBase's default retry loop of minutes), and let a process's threads
     * write side by side: the client's defaults allow one batch in flight per region and two per region server, so
     * every thread's buffered writes queued behind one another on a table of one region (a page's pool removals
     * behind the fan-out's). Batches in flight side by side may apply in any order; the pool and feed stores never
     * put and delete the same row in one flush, so none depends on it.
     *
     * <p>The connection's batch pool gets {@value #BATCH_THREADS} threads: by default it grows to 256 (a new thread per task
     * until that many, each kept while the pool is busy), which in the feed-service were 512 of its 742 threads, every one
     * walked at each garbage collection, where at most {@code max.perserver.tasks} run per region server anyway.
     */
    public static Configuration clientConfiguration(String zookeeperQuorum) {
        Configuration conf = HBaseConfiguration.create();
        String[] hostPort = zookeeperQuorum.split(",")[0].split(":");
        conf.set("hbase.zookeeper.quorum", zookeeperQuorum.replaceAll(":\\d+", ""));
        if (hostPort.length > 1) conf.set("hbase.zookeeper.property.clientPort", hostPort[1]);
        conf.setInt("hbase.client.retries.number", 3);
        conf.setInt("hbase.client.pause", 200);
        conf.setInt("hbase.rpc.timeout", 5_000);
        conf.setInt("hbase.client.operation.timeout", 10_000);
        conf.setInt("hbase.client.scanner.timeout.period", 10_000);
        conf.setInt("hbase.client.max.perregion.tasks", 16);
        conf.setInt("hbase.client.max.perserver.tasks", 16);
        conf.setInt("hbase.hconnection.threads.core", BATCH_THREADS);
        conf.setInt("hbase.hconnection.threads.max", BATCH_THREADS);
        conf.setInt("zookeeper.recovery.retry", 1);
        conf.setInt("zookeeper.session.timeout", 10_000);
        return conf;
    }
}
