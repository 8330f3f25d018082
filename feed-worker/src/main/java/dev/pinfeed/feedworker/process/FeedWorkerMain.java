package dev.pinfeed.feedworker.process;

import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalReads;
import dev.pinfeed.canonicalstore.reads.CacheListener;
import dev.pinfeed.canonicalstore.reads.CachedCanonicalReads;
import dev.pinfeed.canonicalstore.redis.RedisCanonicalCache;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.feedstore.NoticingPoolStore;
import dev.pinfeed.feedstore.QuietPools;
import dev.pinfeed.feedstore.hbase.HBaseLayout;
import dev.pinfeed.feedstore.hbase.HBaseMaterializedFeedStore;
import dev.pinfeed.feedstore.hbase.HBasePoolStore;
import dev.pinfeed.feedstore.hbase.HBaseStage;
import dev.pinfeed.feedstore.hbase.HBaseStages;
import dev.pinfeed.feedstore.redis.RedisQuietPools;
import dev.pinfeed.feedstore.scoring.WeightedScorer;
import dev.pinfeed.feedworker.FeedWorker;
import dev.pinfeed.feedworker.WorkerMetrics;
import dev.pinfeed.feedworker.WorkerSettings;
import dev.pinfeed.feedworker.canonical.CanonicalReadsPins;
import dev.pinfeed.feedworker.redis.RedisAffinityStore;
import dev.pinfeed.followergraph.redis.GraphConnections;
import dev.pinfeed.mysqlshards.MysqlShardConfig;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.processorruntime.BatchHandler;
import dev.pinfeed.processorruntime.ConsumerLoop;
import dev.pinfeed.processorruntime.ProcessContext;
import dev.pinfeed.processorruntime.ProcessorGroups;
import dev.pinfeed.processorruntime.ReadHorizon;
import dev.pinfeed.processorruntime.ProcessMain;
import dev.pinfeed.processorruntime.ReplicationBarrier;
import dev.pinfeed.redismasters.RedisMasterClients;
import dev.pinfeed.redisshards.RedisShards;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * The feed worker as a process: {@code java -cp feed-worker/target/classes:$(cat feed-worker/target/classpath.txt)
 * dev.pinfeed.feedworker.process.FeedWorkerMain}. Consumes the fan-out, follows and likes topics
 * ({@code feed.worker.topics}, the fan-out's first; group {@code feed.worker.group}, default {@value #GROUP}) into the pools
 * of the primary HBase cluster, and the fan-out's bulk lane ({@link #bulkLane}) in a second loop of its own (group
 * {@link #bulkGroup}); admin endpoint at {@code feed-worker.admin.http} (ready: its Kafka group
 * joined, HBase primary and every Redis instance answering, no record parked for an outage).
 */
public final class FeedWorkerMain {

    public static final String NAME = "feed-worker";
    public static final String GROUP = "pinfeed-feed-worker";
    public static final List<String> TOPICS = List.of(EventTopics.FANOUT, EventTopics.FOLLOWS, EventTopics.LIKES);

    private FeedWorkerMain() {}

    public static void main(String[] args) {
        ProcessMain.run(NAME, FeedWorkerMain::start);
    }

    /**
     * What the feed worker opens and runs, in the context it is given: the live process's ({@link #main}), or a
     * bounded one that applies a range of its topics ({@code ./pinfeed replay ... --to}, {@link ProcessContext#bounded}).
     */
    public static void start(ProcessContext ctx) throws Exception {
        PinfeedConfig config = ctx.config();
        WorkerSettings settings = WorkerSettings.from(config);
        WeightedScorer.Settings scoring = WeightedScorer.Settings.from(config);
        ctx.step("serving the admin endpoint", ctx::serveAdmin);
        CuratorFramework zk = ctx.step("connecting to ZooKeeper " + config.appZookeeper(), ctx::curator);
        GraphConnections graph = ctx.closeOnExit(ctx.step("opening the follower graph in Redis",
                () -> GraphConnections.open(config, zk, RedisShards.keyPrefix(config))));
        for (String instance : graph.store().instances()) ctx.readiness(instance, () -> graph.store().ping(instance));
        RedisAffinityStore affinity = ctx.closeOnExit(RedisAffinityStore.connect(graph.masters(), graph.shards(),
                RedisAffinityStore.keyPrefix(config)));

        // Each stage on its home cluster (HBaseLayout): the pools it fills, the materialized feeds it removes deleted and
        // unfollowed pins from. Never a stage's standby: replication alone writes there.
        HBaseStages hbase = ctx.closeOnExit(ctx.step("connecting to HBase (" + HBaseLayout.from(config) + ")",
                () -> HBaseStages.connect(config)));
        for (HBaseStage stage : HBaseStage.values()) {
            String cluster = hbase.cluster(stage);
            if (stage == HBaseStage.POOLS || !cluster.equals(hbase.cluster(HBaseStage.POOLS))) {
                ctx.readiness(cluster, () -> hbase.ping(stage));
            }
        }
        HBasePoolStore pools = ctx.closeOnExit(hbase.pools());
        HBaseMaterializedFeedStore feeds = hbase.materializedFeed();

        MysqlShardConfig mysqlShards = ctx.closeOnExit(ctx.step("watching the MySQL shard map", () -> MysqlShardConfig.watch(zk, config)));
        ShardDataSources mysql = ctx.closeOnExit(ShardDataSources.from(config, mysqlShards, NAME,
                config.getInt("feed.worker.mysql.pool-size", 4), Map.of()));
        ShardedDb db = ctx.closeOnExit(new ShardedDb(mysql));
        RedisMasterClients cacheClients = RedisCanonicalCache.clients(graph.masters(), Duration.ofMillis(250), 4);
        RedisCanonicalCache cache = ctx.closeOnExit(new RedisCanonicalCache(cacheClients, graph.shards(), Duration.ofSeconds(600)));
        CanonicalReadsPins canonical = new CanonicalReadsPins(new CachedCanonicalReads(new MysqlCanonicalReads(db), cache,
                CacheListener.NONE, CachedCanonicalReads.DEFAULT_LIST_SIZE));

        // Every pool write noticed in the quiet pools, so a reader whose pools were quiet reads them again (feed-service).
        QuietPools quietPools = ctx.closeOnExit(RedisQuietPools.open(config, graph.redis(), graph.store().keys().prefix()));
        WorkerMetrics metrics = new WorkerMetrics(ctx.meters());
        // A like's pin is written by the materializer, a follow's edge by the graph processor: a record waiting for either is
        // missing only once they have applied what their topics held when its grace ran out (a fresh stack's backlog).
        ReadHorizon upstream = ctx.upstreamHorizon(List.of(ProcessorGroups.materializer(config), ProcessorGroups.followerGraph(config)));
        FeedWorker worker = new FeedWorker(NoticingPoolStore.over(pools, quietPools, metrics::quietPoolsNoticeFailed), feeds, graph.store(),
                canonical, affinity, new WeightedScorer(scoring, ctx.clock()), settings, ctx.clock(), metrics, upstream);
        List<String> topics = topics(config);
        String group = group(config);
        // The handler dead-letters a record that waited settings.waitGrace(); the loop's own grace must never come first.
        Duration loopGrace = settings.waitGrace().multipliedBy(2).plusMinutes(1);
        ctx.consume(ConsumerLoop.Settings.of(NAME, group, topics).withWaitGrace(loopGrace).withUpstream(upstream),
                handler(worker, affinity, config, ctx), consumerOverrides(config));
        // The bulk lane in a loop of its own: a big fan-out's later chunks never hold up other pins' first chunks.
        ctx.consume(ConsumerLoop.Settings.of(NAME, bulkGroup(group), List.of(bulkLane(topics))).withWaitGrace(loopGrace).withUpstream(upstream),
                handler(worker, affinity, config, ctx), bulkConsumerOverrides(config));
    }

    /** How long a batch that changed likes waits for each changed instance's replica before its offsets are committed anyway. */
    public static final String REPLICA_WAIT_MS = "feed.worker.replica-wait-ms";

    /**
     * A loop's handler: the worker, then a replication barrier for the like changes the batch made
     * ({@link ReplicationBarrier}, {@code feed_worker_unreplicated_batches_total{instance}}), so a
     * Redis failover loses no committed like. A batch without likes waits for nothing.
     */
    static BatchHandler handler(FeedWorker worker, RedisAffinityStore affinity, PinfeedConfig config, ProcessContext ctx) {
        return ReplicationBarrier.beforeCommit(new FeedWorkerHandler(worker, ctx.clock()), affinity::unreplicated,
                Duration.ofMillis(config.getInt(REPLICA_WAIT_MS, 1_000)), ctx.meters(), "feed_worker_unreplicated_batches_total");
    }

    /** The bulk lane of the fan-out chunk topic, the first of the worker's topics (EventTopics.bulkLaneOf). */
    public static String bulkLane(List<String> topics) {
        return EventTopics.bulkLaneOf(topics.get(0));
    }

    /** The bulk lane's consumer group: its own, so its offsets and rebalances never touch the main loop's. */
    public static String bulkGroup(String group) {
        return group + "-bulk";
    }

    /** Per-partition fetch bound of the worker's consumer, bytes (Kafka's default: 1 MiB). */
    public static final String MAX_PARTITION_FETCH_BYTES = "feed.worker.max-partition-fetch-bytes";

    /**
     * The worker's consumer settings over the runtime's. A poll is one batch, applied whole before the
     * next: with Kafka's 1 MiB per partition, one poll held up to ~100 chunks of a big author's pin (all
     * on one partition: one key) — up to 100 000 pool entries — and the small pins polled with them
     * waited for all of it. 16 KiB is about one full chunk (1 000 receivers): a batch holds at most a
     * chunk or two of a big fan-out, and other partitions' pins come through between them (measured with
     * a 100 k fan-out, small pins meanwhile p50: 5.2 s at 1 MiB, 3.5 s at 64 KiB, 1.4 s at 16 KiB, with
     * no loss of end-to-end rate; docs/benchmarks.md).
     */
    public static Properties consumerOverrides(PinfeedConfig config) {
        return fetchBound(config, MAX_PARTITION_FETCH_BYTES);
    }

    /** Per-partition fetch bound of the bulk lane's consumer, bytes. */
    public static final String BULK_MAX_PARTITION_FETCH_BYTES = "feed.worker.bulk.max-partition-fetch-bytes";

    /**
     * The bulk lane's consumer settings, its own so they can be tuned apart: nothing small waits behind
     * its batches (other pins travel the fast lane). Measured with a 100 k fan-out, larger batches did
     * not raise the lane's rate (the HBase region server is the bound) and made the fast lane's tail
     * slower (sharing it): 16 KiB as the fast lane, by default.
     */
    public static Properties bulkConsumerOverrides(PinfeedConfig config) {
        return fetchBound(config, BULK_MAX_PARTITION_FETCH_BYTES);
    }

    /** Kafka's per-partition fetch bound from the configuration key {@code key}, 16 KiB by default. */
    private static Properties fetchBound(PinfeedConfig config, String key) {
        Properties p = new Properties();
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(config.getInt(key, 16 * 1024)));
        return p;
    }

    /** The topics the worker consumes: {@code feed.worker.topics}, else {@link #TOPICS}. */
    public static List<String> topics(PinfeedConfig config) {
        List<String> configured = config.list("feed.worker.topics");
        return configured.isEmpty() ? TOPICS : configured;
    }

    /** The worker's consumer group: {@code feed.worker.group}, else {@value #GROUP} (the bulk lane's: {@link #bulkGroup}). */
    public static String group(PinfeedConfig config) {
        return config.get("feed.worker.group", GROUP);
    }
}
