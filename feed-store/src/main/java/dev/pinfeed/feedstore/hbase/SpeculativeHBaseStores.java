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
 * The feed serving path's stores over both HBase clusters (seed 002): {@link #materializedFeed()} and
 * {@link #pools()} read speculatively (primary, then the standby on failure or past the learned
 * cutoff) and write to the primary only. Owns what it built: the connections (when it opened them),
 * the caller threads (a bounded pool per cluster, so a hung primary cannot starve standby calls), the
 * timer and the replication-lag heartbeat ({@link HBaseReplicaLag}, every {@code
 * feed.speculative.heartbeat-ms}, default 1000; 0 turns it off and staleness goes unmeasured).
 */
public final class SpeculativeHBaseStores implements AutoCloseable {

    private static final int CALLERS_PER_CLUSTER = 32;

    private final Connection primaryConnection;
    private final Connection standbyConnection;
    private final boolean ownsConnections;
    private final ExecutorService primaryCalls = callers(HBaseClusters.PRIMARY);
    private final ExecutorService standbyCalls = callers(HBaseClusters.STANDBY);
    private final ScheduledThreadPoolExecutor timer;
    /** Apart from the timer: a heartbeat blocked on a down primary must not hold up cutoffs. */
    private final ScheduledThreadPoolExecutor heartbeats = new ScheduledThreadPoolExecutor(1, daemon("hbase-heartbeat"));
    private final HBaseMaterializedFeedStore primaryFeed;
    private final HBasePoolStore primaryPools;
    private final HBasePoolStore standbyPools;
    private final SpeculativeReads<MaterializedFeedStore> feedReads;
    private final SpeculativeReads<PoolStore> poolReads;
    private final HBaseReplicaLag lag;

    /** Connects to both clusters ({@link HBaseClusters#connect}) with the settings of {@code config}. */
    public static SpeculativeHBaseStores connect(PinfeedConfig config, MeterRegistry registry) {
        Connection primary = HBaseClusters.connect(config, HBaseClusters.PRIMARY);
        Connection standby;
        try {
            standby = HBaseClusters.connect(config, HBaseClusters.STANDBY);
        } catch (RuntimeException e) {
            closeQuietly(primary);
            throw e;
        }
        return new SpeculativeHBaseStores(primary, standby, true, SpeculativeSettings.from(config),
                Duration.ofMillis(config.getInt(SpeculativeSettings.PREFIX + "heartbeat-ms", 1000)), registry);
    }

    /** Over connections the caller owns (and closes after this). */
    public static SpeculativeHBaseStores over(Connection primary, Connection standby, SpeculativeSettings settings, Duration heartbeat,
                                              MeterRegistry registry) {
        return new SpeculativeHBaseStores(primary, standby, false, settings, heartbeat, registry);
    }

    private SpeculativeHBaseStores(Connection primary, Connection standby, boolean ownsConnections, SpeculativeSettings settings,
                                   Duration heartbeat, MeterRegistry registry) {
        this.primaryConnection = primary;
        this.standbyConnection = standby;
        this.ownsConnections = ownsConnections;
        this.timer = new ScheduledThreadPoolExecutor(1, daemon("hbase-speculative-timer"));
        timer.setRemoveOnCancelPolicy(true); // a cancelled cutoff (the usual case) must not linger in the queue
        this.lag = new HBaseReplicaLag(primary, standby, System::currentTimeMillis);
        ReplicaLag measured = heartbeat.isZero() ? ReplicaLag.UNKNOWN : lag;
        if (!heartbeat.isZero()) heartbeats.scheduleWithFixedDelay(lag::tick, 0, heartbeat.toMillis(), TimeUnit.MILLISECONDS);
        SpeculativeReads.Environment env = new SpeculativeReads.Environment(System::nanoTime, SpeculativeReads.Scheduler.of(timer),
                () -> ThreadLocalRandom.current().nextDouble());
        this.primaryFeed = new HBaseMaterializedFeedStore(primary, HBaseClusters.PRIMARY);
        this.feedReads = new SpeculativeReads<>("materialized_feed",
                new SpeculativeReads.Target<>(HBaseClusters.PRIMARY, primaryFeed, primaryCalls),
                new SpeculativeReads.Target<>(HBaseClusters.STANDBY, new HBaseMaterializedFeedStore(standby, HBaseClusters.STANDBY), standbyCalls),
                settings, env, measured, registry);
        this.primaryPools = new HBasePoolStore(primary, HBaseClusters.PRIMARY);
        this.standbyPools = HBasePoolStore.readOnly(standby, HBaseClusters.STANDBY);
        this.poolReads = new SpeculativeReads<>("pools",
                new SpeculativeReads.Target<>(HBaseClusters.PRIMARY, primaryPools, primaryCalls),
                new SpeculativeReads.Target<>(HBaseClusters.STANDBY, standbyPools, standbyCalls),
                settings, env, measured, registry);
    }

    /** The materialized feed: speculative reads, writes to the primary. */
    public MaterializedFeedStore materializedFeed() {
        return new SpeculativeMaterializedFeedStore(feedReads);
    }

    /** The pools: speculative reads, writes to the primary. */
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
     * Readiness of a reader: fine while either cluster answers (reads are served from the standby while
     * the primary is down); {@link dev.pinfeed.config.StoreUnavailableException} naming both otherwise.
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

    /** The standby's last measured replication lag. */
    public ReplicaLag replicaLag() {
        return lag;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        heartbeats.shutdownNow();
        primaryCalls.shutdownNow();
        standbyCalls.shutdownNow();
        try {
            primaryPools.close();
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
