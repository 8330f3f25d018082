package dev.pinfeed.feedworker.process;

import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalReads;
import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalSeed;
import dev.pinfeed.eventsschema.AvroEventDeserializer;
import dev.pinfeed.eventsschema.AvroEventSerializer;
import dev.pinfeed.eventsschema.CachingSchemaRegistryClient;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import dev.pinfeed.eventsschema.SchemaRegistryClient;
import dev.pinfeed.feedstore.hbase.HBaseStages;
import dev.pinfeed.feedstore.hbase.HBaseMaterializedFeedStore;
import dev.pinfeed.feedstore.hbase.HBasePoolStore;
import dev.pinfeed.feedstore.scoring.PinFacts;
import dev.pinfeed.feedstore.scoring.WeightedScorer;
import dev.pinfeed.feedworker.FeedWorker;
import dev.pinfeed.feedworker.WorkerMetrics;
import dev.pinfeed.feedworker.WorkerSettings;
import dev.pinfeed.feedworker.canonical.CanonicalReadsPins;
import dev.pinfeed.feedworker.redis.RedisAffinityStore;
import dev.pinfeed.followergraph.redis.RedisGraphStore;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.processorruntime.ConsumerLoop;
import dev.pinfeed.processorruntime.DeadLetterWriter;
import dev.pinfeed.processorruntime.KafkaClients;
import dev.pinfeed.redisshards.RedisShardMap;
import dev.pinfeed.redisshards.RedisShards;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The worker's world on the shared stack, kept apart by names: fresh fan-out, follows and likes
 * topics, a fresh group, fresh Redis key prefixes for the graph and the affinities, fresh ids (users,
 * boards and pins as real sharded ids, so the canonical store routes them). HBase pools and MySQL
 * shards are shared tables; fresh ids keep tests apart in them.
 */
final class WorkerFixtures implements AutoCloseable {

    final TestStack stack;
    final String fanout;
    final String follows;
    final String likes;
    final String deadLetters;
    final String group;
    final String graphPrefix;
    final String affinityPrefix;
    final SchemaRegistryClient registry;
    final HBaseStages hbase;
    final HBasePoolStore pools;
    final HBaseMaterializedFeedStore feeds;
    final RedisShardMap shards;
    final RedisGraphStore graph;
    final RedisAffinityStore affinity;
    private final ShardDataSources sources;
    final ShardedDb db;
    final MysqlCanonicalSeed canonical;
    private final KafkaProducer<String, SpecificRecord> events;

    WorkerFixtures(TestStack stack, int partitions) throws Exception {
        this.stack = stack;
        fanout = stack.uniqueTopic("fw-fanout");
        follows = stack.uniqueTopic("fw-follows");
        likes = stack.uniqueTopic("fw-likes");
        deadLetters = stack.uniqueTopic("fw-dlq");
        group = stack.uniqueName("feed_worker");
        graphPrefix = stack.keyPrefix("fw-graph");
        affinityPrefix = stack.keyPrefix("fw-affinity");
        // The bulk lane too: the worker's main (a child JVM) reads it in its second loop.
        Map<String, Integer> fresh = new LinkedHashMap<>();
        for (String topic : List.of(fanout, EventTopics.bulkLaneOf(fanout), follows, likes)) fresh.put(topic, partitions);
        fresh.put(deadLetters, 1);
        stack.createTopics(fresh);
        registry = new CachingSchemaRegistryClient(HttpSchemaRegistryClient.from(stack.config()));
        events = new KafkaProducer<>(KafkaClients.producer(stack.config(), group + "-test"), new StringSerializer(), new AvroEventSerializer(registry));
        hbase = HBaseStages.connect(stack.config());
        pools = hbase.pools();
        feeds = hbase.materializedFeed();
        shards = RedisShards.defaultShardMap(stack.config());
        graph = RedisGraphStore.connect(stack.config(), () -> shards, graphPrefix);
        affinity = RedisAffinityStore.connect(stack.config(), () -> shards, affinityPrefix);
        sources = ShardDataSources.from(stack.config(), "feed-worker-it", 4);
        db = new ShardedDb(sources);
        canonical = new MysqlCanonicalSeed(db, (id, keys) -> {}); // the in-process worker reads MySQL without the caches
    }

    /** Where {@code event} goes among the fresh topics, with its production partition key. */
    void publish(SpecificRecord event) throws Exception {
        String topic = switch (EventTopics.topicFor(event)) {
            case EventTopics.FANOUT -> fanout;
            case EventTopics.FOLLOWS -> follows;
            case EventTopics.LIKES -> likes;
            default -> throw new IllegalArgumentException("not a feed-worker input: " + event.getSchema().getName());
        };
        events.send(new ProducerRecord<>(topic, EventTopics.partitionKey(event), event)).get();
    }

    /** Bytes as they are onto one of the fresh topics: poison records. */
    void publishRaw(String topic, String key, byte[] value) throws Exception {
        try (KafkaProducer<byte[], byte[]> raw = new KafkaProducer<>(KafkaClients.producer(stack.config(), group + "-raw"),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            raw.send(new ProducerRecord<>(topic, key.getBytes(java.nio.charset.StandardCharsets.UTF_8), value)).get();
        }
    }

    /** The worker's dead letters so far, waiting up to 30 s for {@code expected} of them. */
    List<org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]>> deadLettered(int expected) {
        return stack.records(deadLetters, expected, java.time.Duration.ofSeconds(30));
    }

    private long local() {
        return stack.freshId() & 0xF_FFFF_FFFFL; // 36 bits
    }

    long user() {
        long local = local();
        long id = ShardedId.compose((int) (local % 4096), ObjectType.USER, local);
        canonical.user(id, "fw" + Long.toString(local, 36), null, System.currentTimeMillis());
        return id;
    }

    long board(long owner) {
        long id = ShardedId.compose(ShardedId.decode(owner).shard(), ObjectType.BOARD, local());
        canonical.board(id, owner, "board", null, System.currentTimeMillis());
        return id;
    }

    /** A pin id on the board's shard, unknown to the canonical store (the fan-out's chunks carry all the worker needs). */
    PinFacts unknownPin(long board, long author, long createdAt) {
        return new PinFacts(ShardedId.compose(ShardedId.decode(board).shard(), ObjectType.PIN, local()), board, author, createdAt);
    }

    /** A pin the canonical store knows, liked by {@code likers} fresh users. */
    PinFacts pin(long board, long author, long createdAt, int likers) {
        PinFacts p = unknownPin(board, author, createdAt);
        canonical.pin(p.pinId(), board, author, "pin", null, null, createdAt);
        for (int i = 0; i < likers; i++) canonical.like(user(), p.pinId(), createdAt + i, true);
        return p;
    }

    /** FeedWorkerMain's configuration for a child JVM on these topics, group and prefixes. */
    Map<String, String> childProperties(int adminPort) {
        Map<String, String> p = new HashMap<>();
        p.put("feed.worker.topics", fanout + "," + follows + "," + likes);
        p.put("feed.worker.group", group);
        p.put("feed-worker.admin.http", "127.0.0.1:" + adminPort);
        p.put("graph.redis.key-prefix", graphPrefix);
        p.put("feed.worker.redis.key-prefix", affinityPrefix);
        return p;
    }

    /** The worker as FeedWorkerMain assembles it (MySQL without its caches), on a thread of the test JVM. */
    RunningWorker start(WorkerSettings settings) {
        return new RunningWorker(settings);
    }

    final class RunningWorker implements AutoCloseable {
        final SimpleMeterRegistry meters = new SimpleMeterRegistry();
        private final ConsumerLoop loop;
        private final Thread thread;

        private RunningWorker(WorkerSettings settings) {
            Clock clock = Clock.systemUTC();
            FeedWorker worker = new FeedWorker(pools, feeds, graph, new CanonicalReadsPins(new MysqlCanonicalReads(db)), affinity,
                    new WeightedScorer(WeightedScorer.Settings.defaults(), clock), settings, clock, new WorkerMetrics(meters));
            Properties consumer = KafkaClients.consumer(stack.config(), group);
            KafkaProducer<byte[], byte[]> dlq = new KafkaProducer<>(KafkaClients.producer(stack.config(), group + "-dlq"),
                    new ByteArraySerializer(), new ByteArraySerializer());
            loop = new ConsumerLoop(new KafkaConsumer<>(consumer, new ByteArrayDeserializer(), new ByteArrayDeserializer()),
                    new AvroEventDeserializer(registry), new FeedWorkerHandler(worker, clock),
                    new DeadLetterWriter(dlq, deadLetters, group, FeedWorkerMain.NAME, meters),
                    ConsumerLoop.Settings.of(FeedWorkerMain.NAME, group, List.of(fanout, follows, likes))
                            .withWaitGrace(settings.waitGrace().multipliedBy(2).plusMinutes(1)),
                    clock, meters);
            thread = new Thread(loop, "feed-worker-it");
            thread.start();
        }

        /** Records parked (waiting or for an outage). */
        int parked() {
            return loop.parkedCount();
        }

        /** Records applied so far (every type). */
        long applied() {
            return (long) meters.find("pinfeed.events.applied").counters().stream().mapToDouble(Counter::count).sum();
        }

        @Override
        public void close() throws InterruptedException {
            loop.close();
            thread.join(10_000);
        }
    }

    @Override
    public void close() throws Exception {
        events.close();
        pools.close();
        hbase.close();
        graph.close();
        affinity.close();
        db.close();
        sources.close();
    }
}
