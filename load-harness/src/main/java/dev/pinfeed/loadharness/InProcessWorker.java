package dev.pinfeed.loadharness;

import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalReads;
import dev.pinfeed.canonicalstore.reads.CacheListener;
import dev.pinfeed.canonicalstore.reads.CachedCanonicalReads;
import dev.pinfeed.canonicalstore.redis.RedisCanonicalCache;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.eventsschema.AvroEventDeserializer;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.eventsschema.SchemaRegistryClient;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.hbase.HBaseMaterializedFeedStore;
import dev.pinfeed.feedstore.scoring.WeightedScorer;
import dev.pinfeed.feedworker.FeedWorker;
import dev.pinfeed.feedworker.WorkerMetrics;
import dev.pinfeed.feedworker.WorkerSettings;
import dev.pinfeed.feedworker.canonical.CanonicalReadsPins;
import dev.pinfeed.feedworker.process.FeedWorkerHandler;
import dev.pinfeed.feedworker.process.FeedWorkerMain;
import dev.pinfeed.feedworker.redis.RedisAffinityStore;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.processorruntime.ConsumerLoop;
import dev.pinfeed.processorruntime.DeadLetterWriter;
import dev.pinfeed.processorruntime.KafkaClients;
import dev.pinfeed.redisshards.RedisShardMap;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The feed worker as {@link FeedWorkerMain} assembles it, in the harness's JVM: {@link FeedWorker} over
 * the given pools (HBase primary, maybe wrapped to observe writes), the materialized feed, the given
 * graph, Redis affinities and canonical like counts (Redis cache over MySQL), driven by the processor
 * runtime's consumer loop ({@link FeedWorkerHandler}) on a fresh group. Closing stops the loop and
 * closes what this opened (not the pools, graph or HBase connection).
 */
final class InProcessWorker implements AutoCloseable {

    private final PinfeedConfig config;
    private final FeedWorker worker;
    private final RedisAffinityStore affinity;
    private final ShardDataSources mysql;
    private final ShardedDb db;
    private final RedisCanonicalCache cache;
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final List<ConsumerLoop> loops = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final List<KafkaProducer<byte[], byte[]>> dlqs = new ArrayList<>();

    InProcessWorker(PinfeedConfig config, HBaseMaterializedFeedStore feeds, PoolStore pools, GraphStore graph, RedisShardMap shards, String affinityPrefix) {
        this.config = config;
        this.affinity = RedisAffinityStore.connect(config, () -> shards, affinityPrefix);
        this.mysql = ShardDataSources.from(config, "bench-feed-worker", 4);
        this.db = new ShardedDb(mysql);
        this.cache = new RedisCanonicalCache(RedisCanonicalCache.clients(config, Duration.ofMillis(250), 4), () -> shards,
                Duration.ofSeconds(600));
        CanonicalReadsPins canonical = new CanonicalReadsPins(new CachedCanonicalReads(new MysqlCanonicalReads(db), cache,
                CacheListener.NONE, CachedCanonicalReads.DEFAULT_LIST_SIZE));
        this.worker = new FeedWorker(pools, feeds, graph, canonical, affinity,
                new WeightedScorer(WeightedScorer.Settings.defaults(), Clock.systemUTC()), WorkerSettings.defaults(), Clock.systemUTC(),
                new WorkerMetrics(new SimpleMeterRegistry()));
    }

    /** Starts consuming {@code topic} as {@code group}, {@code maxPoll} records a poll; returns once the group is joined. */
    InProcessWorker start(SchemaRegistryClient registry, String topic, String group, int maxPoll) throws InterruptedException {
        loop(registry, topic, group, maxPoll, FeedWorkerMain.consumerOverrides(config));
        return this;
    }

    /**
     * {@link #start}, and the bulk lane of {@code chunkTopic} in a second loop, as the worker's main runs
     * it ({@link FeedWorkerMain#bulkLane}, {@link FeedWorkerMain#bulkGroup}).
     */
    InProcessWorker startWithBulkLane(SchemaRegistryClient registry, String chunkTopic, String group, int maxPoll) throws InterruptedException {
        start(registry, chunkTopic, group, maxPoll);
        loop(registry, FeedWorkerMain.bulkLane(List.of(chunkTopic)), FeedWorkerMain.bulkGroup(group), maxPoll,
                FeedWorkerMain.bulkConsumerOverrides(config));
        return this;
    }

    private ConsumerLoop loop(SchemaRegistryClient registry, String topic, String group, int maxPoll, Properties overrides)
            throws InterruptedException {
        Properties consumer = KafkaClients.consumer(config, group);
        consumer.putAll(overrides); // as the worker's main runs it
        consumer.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(maxPoll));
        KafkaProducer<byte[], byte[]> dlq = new KafkaProducer<>(KafkaClients.producer(config, group + "-dlq"), new ByteArraySerializer(),
                new ByteArraySerializer());
        dlqs.add(dlq);
        ConsumerLoop l = new ConsumerLoop(new KafkaConsumer<>(consumer, new ByteArrayDeserializer(), new ByteArrayDeserializer()),
                new AvroEventDeserializer(registry), new FeedWorkerHandler(worker, Clock.systemUTC()),
                new DeadLetterWriter(dlq, DeadLetters.TOPIC, group, FeedWorkerMain.NAME, meters),
                ConsumerLoop.Settings.of(FeedWorkerMain.NAME, group, List.of(topic)), Clock.systemUTC(), meters);
        loops.add(l);
        Thread t = new Thread(l, "bench-feed-worker-" + loops.size());
        threads.add(t);
        t.start();
        while (!l.ready()) TimeUnit.MILLISECONDS.sleep(5);
        return l;
    }

    /** The runtime's meters: {@code pinfeed.batch.apply} (timer), {@code pinfeed.events.applied} (counters). */
    SimpleMeterRegistry meters() {
        return meters;
    }

    /** Records applied so far. */
    long applied() {
        return (long) meters.find("pinfeed.events.applied").counters().stream().mapToDouble(Counter::count).sum();
    }

    /** Records parked for a store outage (should stay 0), with the last outage, or null. */
    String parked() {
        long parked = loops.stream().mapToLong(ConsumerLoop::parkedCount).sum();
        return parked == 0 ? null : parked + " records parked: " + loops.stream().map(ConsumerLoop::lastOutage)
                .filter(java.util.Objects::nonNull).findFirst().orElse(null);
    }

    @Override
    public void close() throws Exception {
        try {
            for (ConsumerLoop l : loops) l.close();
            for (Thread t : threads) t.join(30_000);
            dlqs.forEach(KafkaProducer::close);
        } finally {
            cache.close();
            db.close();
            mysql.close();
            affinity.close();
        }
    }
}
