package dev.pinfeed.feedstore.hbase;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedstore.MaterializedFeedStore;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.ReplicaLag;
import dev.pinfeed.feedstore.SpeculativeMaterializedFeedStore;
import dev.pinfeed.feedstore.SpeculativePoolStore;
import dev.pinfeed.feedstore.SpeculativeReads;
import dev.pinfeed.feedstore.SpeculativeSettings;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.client.Connection;

/**
 * The feed serving path's stores over both HBase clusters (seed 002), each stage on its home cluster by
 * {@link HBaseLayout} (by default the pools on {@value HBaseClusters#PRIMARY}, the materialized feed on
 * {@value HBaseClusters#STANDBY}): {@link #materializedFeed()} and {@link #pools()} read speculatively (the
 * stage's home, then the other cluster on failure or past the learned cutoff) and write to the stage's home
 * only. Owns what it built: the connections (when it opened them), the caller threads (a bounded pool per
 * cluster, so a hung cluster cannot starve calls to the other), the timer and one replication-lag heartbeat
 * per stage ({@link HBaseReplicaLag}, every {@code feed.speculative.heartbeat-ms}, default 1000; 0 turns
 * them off and staleness goes unmeasured).
 */
public final class SpeculativeHBaseStores implements AutoCloseable {

    private static final int CALLERS_PER_CLUSTER = 32;

    private final HBaseLayout layout;
    private final Connection primaryConnection;
    private final Connection standbyConnection;
    private final boolean ownsConnections;
    private final ExecutorService primaryCalls = callers(HBaseClusters.PRIMARY);
    private final ExecutorService standbyCalls = callers(HBaseClusters.STANDBY);
    private final ScheduledThreadPoolExecutor timer;
    /** Apart from the timer: a heartbeat blocked on a down cluster must not hold up cutoffs. */
    private final ScheduledThreadPoolExecutor heartbeats = new ScheduledThreadPoolExecutor(1, daemon("hbase-heartbeat"));
    private final HBasePoolStore homePools;
    private final SpeculativeReads<MaterializedFeedStore> feedReads;
    private final SpeculativeReads<PoolStore> poolReads;
    private final HBaseReplicaLag feedLag;
    private final HBaseReplicaLag poolsLag;

    /** Connects to both clusters ({@link HBaseClusters#connect}) with the settings and the stage layout of {@code config}. */
    public static SpeculativeHBaseStores connect(PinfeedConfig config, MeterRegistry registry) {
        HBaseLayout layout = HBaseLayout.from(config);
        Connection primary = HBaseClusters.connect(config, HBaseClusters.PRIMARY);
        Connection standby;
        try {
            standby = HBaseClusters.connect(config, HBaseClusters.STANDBY);
        } catch (RuntimeException e) {
            closeQuietly(primary);
            throw e;
        }
        return new SpeculativeHBaseStores(primary, standby, true, layout, SpeculativeSettings.from(config),
                Duration.ofMillis(config.getInt(SpeculativeSettings.PREFIX + "heartbeat-ms", 1000)), registry);
    }

    /** Over connections the caller owns (and closes after this), both stages on {@code primary} ({@link HBaseLayout#SINGLE}). */
    public static SpeculativeHBaseStores over(Connection primary, Connection standby, SpeculativeSettings settings, Duration heartbeat,
                                              MeterRegistry registry) {
        return over(primary, standby, HBaseLayout.SINGLE, settings, heartbeat, registry);
    }

    /**
     * Over connections the caller owns (and closes after this): {@code primary} is the cluster {@value HBaseClusters#PRIMARY},
     * {@code standby} the cluster {@value HBaseClusters#STANDBY}; {@code layout} says which stage lives where.
     */
    public static SpeculativeHBaseStores over(Connection primary, Connection standby, HBaseLayout layout, SpeculativeSettings settings,
                                              Duration heartbeat, MeterRegistry registry) {
        return new SpeculativeHBaseStores(primary, standby, false, layout, settings, heartbeat, registry);
    }

    private SpeculativeHBaseStores(Connection primary, Connection standby, boolean ownsConnections, HBaseLayout layout,
                                   SpeculativeSettings settings, Duration heartbeat, MeterRegistry registry) {
        this.layout = layout;
        this.primaryConnection = primary;
        this.standbyConnection = standby;
        this.ownsConnections = ownsConnections;
        this.timer = new ScheduledThreadPoolExecutor(1, daemon("hbase-speculative-timer"));
        timer.setRemoveOnCancelPolicy(true); // a cancelled cutoff (the usual case) must not linger in the queue
        String feedHome = layout.home(HBaseStage.MATERIALIZED);
        String feedStandby = layout.standbyOf(HBaseStage.MATERIALIZED);
        String poolsHome = layout.home(HBaseStage.POOLS);
        String poolsStandby = layout.standbyOf(HBaseStage.POOLS);
        this.feedLag = new HBaseReplicaLag(HBaseStage.MATERIALIZED, connection(feedHome), connection(feedStandby), System::currentTimeMillis);
        this.poolsLag = new HBaseReplicaLag(HBaseStage.POOLS, connection(poolsHome), connection(poolsStandby), System::currentTimeMillis);
        if (!heartbeat.isZero()) {
            heartbeats.scheduleWithFixedDelay(() -> {
                feedLag.tick();
                poolsLag.tick();
            }, 0, heartbeat.toMillis(), TimeUnit.MILLISECONDS);
        }
        SpeculativeReads.Environment env = new SpeculativeReads.Environment(System::nanoTime, SpeculativeReads.Scheduler.of(timer),
                () -> ThreadLocalRandom.current().nextDouble());
        this.feedReads = new SpeculativeReads<>("materialized_feed",
                new SpeculativeReads.Target<>(feedHome, new HBaseMaterializedFeedStore(connection(feedHome), feedHome), calls(feedHome)),
                new SpeculativeReads.Target<>(feedStandby, new HBaseMaterializedFeedStore(connection(feedStandby), feedStandby),
                        calls(feedStandby)),
                settings, env, heartbeat.isZero() ? ReplicaLag.UNKNOWN : feedLag, registry);
        this.homePools = new HBasePoolStore(connection(poolsHome), poolsHome);
        this.poolReads = new SpeculativeReads<>("pools",
                new SpeculativeReads.Target<>(poolsHome, homePools, calls(poolsHome)),
                new SpeculativeReads.Target<>(poolsStandby, HBasePoolStore.readOnly(connection(poolsStandby), poolsStandby), calls(poolsStandby)),
                settings, env, heartbeat.isZero() ? ReplicaLag.UNKNOWN : poolsLag, registry);
    }

    private Connection connection(String cluster) {
        return cluster.equals(HBaseClusters.STANDBY) ? standbyConnection : primaryConnection;
    }

    private ExecutorService calls(String cluster) {
        return cluster.equals(HBaseClusters.STANDBY) ? standbyCalls : primaryCalls;
    }

    /** Which cluster each stage lives on. */
    public HBaseLayout layout() {
        return layout;
    }

    /** The materialized feed: speculative reads, writes to its home cluster. */
    public MaterializedFeedStore materializedFeed() {
        return new SpeculativeMaterializedFeedStore(feedReads);
    }

    /** The pools: speculative reads, writes to their home cluster. */
    public PoolStore pools() {
        return new SpeculativePoolStore(poolReads);
    }

    /** The materialized feed's speculation (cutoff, primary state), for health pages and tests. */
    public SpeculativeReads<MaterializedFeedStore> feedReads() {
        return feedReads;
    }

    public SpeculativeReads<PoolStore> poolReads() {
        return poolReads;
    }

    /**
     * Readiness of a reader: fine while either cluster answers (each stage's reads are served from the other
     * cluster while its home is down); {@link dev.pinfeed.config.StoreUnavailableException} naming both otherwise.
     */
    public void pingEither() {
        try {
            HBaseClusters.ping(primaryConnection, HBaseClusters.PRIMARY);
        } catch (RuntimeException primaryDown) {
            try {
                HBaseClusters.ping(standbyConnection, HBaseClusters.STANDBY);
            } catch (RuntimeException standbyDown) {
                throw new dev.pinfeed.config.StoreUnavailableException(HBaseClusters.PRIMARY + "," + HBaseClusters.STANDBY,
                        "neither HBase cluster answers: " + primaryDown.getMessage() + "; " + standbyDown.getMessage(), standbyDown);
            }
        }
    }

    /** The materialized feed's standby: its last measured replication lag. */
    public ReplicaLag replicaLag() {
        return feedLag;
    }

    /** The stage's standby: its last measured replication lag. */
    public ReplicaLag replicaLag(HBaseStage stage) {
        return stage == HBaseStage.POOLS ? poolsLag : feedLag;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        heartbeats.shutdownNow();
        primaryCalls.shutdownNow();
        standbyCalls.shutdownNow();
        try {
            homePools.close();
        } finally {
            if (ownsConnections) {
                closeQuietly(primaryConnection);
                closeQuietly(standbyConnection);
            }
        }
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (Exception ignored) { // closing on the way out: nothing left to do about it
        }
    }

    /** Bounded threads and queue: a full pool rejects, and SpeculativeReads counts that as the cluster failing. */
    private static ExecutorService callers(String cluster) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(CALLERS_PER_CLUSTER, CALLERS_PER_CLUSTER, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(CALLERS_PER_CLUSTER * 8), daemon(cluster + "-read"));
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    private static java.util.concurrent.ThreadFactory daemon(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
