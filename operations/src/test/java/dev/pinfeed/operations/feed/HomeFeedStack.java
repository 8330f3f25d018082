package dev.pinfeed.operations.feed;

import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalReads;
import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalSeed;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.events.FanoutAction;
import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.events.FanoutReceiver;
import dev.pinfeed.events.FanoutSource;
import dev.pinfeed.eventsschema.AvroEventDeserializer;
import dev.pinfeed.eventsschema.AvroEventSerializer;
import dev.pinfeed.eventsschema.CachingSchemaRegistryClient;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import dev.pinfeed.eventsschema.SchemaRegistryClient;
import dev.pinfeed.feedservice.FeedServiceServer;
import dev.pinfeed.feedservice.HomeFeedThreads;
import dev.pinfeed.feedservice.homefeed.HomeFeed;
import dev.pinfeed.feedservice.homefeed.HomeFeedListener;
import dev.pinfeed.feedservice.homefeed.HomeFeedSettings;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.hbase.HBaseStages;
import dev.pinfeed.feedstore.hbase.HBaseMaterializedFeedStore;
import dev.pinfeed.feedstore.hbase.HBasePoolStore;
import dev.pinfeed.feedstore.redis.RedisLastReadStore;
import dev.pinfeed.feedstore.scoring.WeightedScorer;
import dev.pinfeed.feedworker.FeedWorker;
import dev.pinfeed.feedworker.WorkerMetrics;
import dev.pinfeed.feedworker.WorkerSettings;
import dev.pinfeed.feedworker.canonical.CanonicalReadsPins;
import dev.pinfeed.feedworker.process.FeedWorkerHandler;
import dev.pinfeed.feedworker.process.FeedWorkerMain;
import dev.pinfeed.feedworker.redis.RedisAffinityStore;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.redis.GraphConnections;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.operations.OperationsCli;
import dev.pinfeed.processorruntime.ConsumerLoop;
import dev.pinfeed.processorruntime.DeadLetterWriter;
import dev.pinfeed.processorruntime.KafkaClients;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisShards;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The home feed's world on the shared stack for the operators' commands, kept apart by names: a fresh
 * fan-out topic (and its bulk lane), a fresh feed-worker group, fresh Redis key prefixes for the graph
 * (which the commands are pointed at through {@link #config}), the affinities and the last reads; users,
 * boards and pins get fresh sharded ids in the shared MySQL shards and HBase tables. The feed worker runs
 * in this JVM as its main wires it; the home feed is read as feed-service reads it.
 */
public final class HomeFeedStack implements AutoCloseable {

    public final TestStack stack;
    public final String fanout;
    public final String group;
    /** The stack's configuration with the graph's fresh key prefix: what the commands run with. */
    public final PinfeedConfig config;
    public final HBaseStages hbase;
    public final HBasePoolStore pools;
    public final HBaseMaterializedFeedStore feeds;
    public final GraphStore graph;
    public final MysqlCanonicalSeed canonical;
    private final String deadLetters;
    private final String affinityPrefix;
    private final String lastReadPrefix;
    private final SchemaRegistryClient registry;
    private final KafkaProducer<String, SpecificRecord> events;
    private final CuratorFramework zk;
    private final GraphConnections graphConnections;
    private final ShardDataSources sources;
    private final ShardedDb db;
    private final AtomicLong eventIds = new AtomicLong();

    public HomeFeedStack(TestStack stack) throws Exception {
        this.stack = stack;
        fanout = stack.uniqueTopic("ops-fanout");
        deadLetters = stack.uniqueTopic("ops-dlq");
        group = stack.uniqueName("ops_feed_worker");
        affinityPrefix = stack.keyPrefix("ops-affinity");
        lastReadPrefix = stack.keyPrefix("ops-last-read");
        config = stack.config().with("graph.redis.key-prefix", stack.keyPrefix("ops-graph"));
        Map<String, Integer> topics = new LinkedHashMap<>();
        topics.put(fanout, 2);
        topics.put(EventTopics.bulkLaneOf(fanout), 2);
        topics.put(deadLetters, 1);
        stack.createTopics(topics);
        registry = new CachingSchemaRegistryClient(HttpSchemaRegistryClient.from(config));
        events = new KafkaProducer<>(KafkaClients.producer(config, group + "-test"), new StringSerializer(), new AvroEventSerializer(registry));
        hbase = HBaseStages.connect(config);
        pools = hbase.pools();
        feeds = hbase.materializedFeed();
        zk = CuratorClients.connected(config, 20);
        graphConnections = GraphConnections.open(config, zk, RedisShards.keyPrefix(config));
        graph = graphConnections.store();
        sources = ShardDataSources.from(config, "ops-feed-it", 4);
        db = new ShardedDb(sources);
        canonical = new MysqlCanonicalSeed(db, (id, keys) -> {}); // fresh ids: no cache holds them
    }

    private long local() {
        return stack.freshId() & 0xF_FFFF_FFFFL; // 36 bits
    }

    public long user() {
        long local = local();
        long id = ShardedId.compose((int) (local % 4096), ObjectType.USER, local);
        canonical.user(id, "ops" + Long.toString(local, 36), null, System.currentTimeMillis());
        return id;
    }

    /** A board of {@code owner}, in the canonical store and (as the graph processor does) in the graph. */
    public long board(long owner) {
        long id = ShardedId.compose(ShardedId.decode(owner).shard(), ObjectType.BOARD, local());
        long now = System.currentTimeMillis();
        canonical.board(id, owner, "board", null, now);
        graph.apply(new GraphCommand.CreateBoard(eventIds.incrementAndGet(), now, id, owner));
        return id;
    }

    public long pin(long board, long author, long createdAt) {
        long id = ShardedId.compose(ShardedId.decode(board).shard(), ObjectType.PIN, local());
        canonical.pin(id, board, author, "pin", null, null, createdAt);
        return id;
    }

    public void follow(long follower, long followee) {
        graph.apply(new GraphCommand.FollowUser(eventIds.incrementAndGet(), System.currentTimeMillis(), follower, followee));
    }

    public void followBoard(long follower, long board, long owner) {
        graph.apply(new GraphCommand.FollowBoard(eventIds.incrementAndGet(), System.currentTimeMillis(), follower, board, owner));
    }

    /** The fan-out's ADD chunk 0 of a pin to these receivers, on the fresh chunk topic keyed as in production. */
    public void deliver(long pin, long board, long author, long createdAt, Map<Long, Source> receivers) throws Exception {
        List<FanoutReceiver> to = receivers.entrySet().stream().map(e -> new FanoutReceiver(e.getKey(),
                e.getValue() == Source.FOLLOWED_BOARD ? FanoutSource.FOLLOWED_BOARD : FanoutSource.FOLLOWED_USER)).toList();
        FanoutChunk chunk = new FanoutChunk(eventIds.incrementAndGet(), Instant.ofEpochMilli(createdAt), FanoutAction.ADD, pin, board, author,
                Instant.ofEpochMilli(createdAt), 0, true, to, null);
        events.send(new ProducerRecord<>(fanout, EventTopics.partitionKey(chunk), chunk)).get();
    }

    /** Whether the worker's group has committed every record of the chunk topic. */
    public boolean workerCaughtUp() throws Exception {
        try (Admin admin = Admin.create(KafkaClients.admin(config))) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetSpec> latest = new LinkedHashMap<>();
            for (int p = 0; p < 2; p++) latest.put(new TopicPartition(fanout, p), OffsetSpec.latest());
            var ends = admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS);
            return ends.entrySet().stream().allMatch(e -> e.getValue().offset() == 0
                    || committed.get(e.getKey()) != null && committed.get(e.getKey()).offset() >= e.getValue().offset());
        }
    }

    /** The feed worker as FeedWorkerMain assembles it (MySQL without its caches), on a thread of this JVM, reading the chunk topic. */
    public AutoCloseable startWorker() {
        Clock clock = Clock.systemUTC();
        RedisAffinityStore affinity = RedisAffinityStore.connect(config, () -> RedisShards.defaultShardMap(config), affinityPrefix);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        FeedWorker worker = new FeedWorker(pools, feeds, graph, new CanonicalReadsPins(new MysqlCanonicalReads(db)), affinity,
                new WeightedScorer(WeightedScorer.Settings.defaults(), clock), WorkerSettings.defaults(), clock, new WorkerMetrics(meters));
        KafkaProducer<byte[], byte[]> dlq = new KafkaProducer<>(KafkaClients.producer(config, group + "-dlq"), new ByteArraySerializer(),
                new ByteArraySerializer());
        ConsumerLoop loop = new ConsumerLoop(new KafkaConsumer<>(KafkaClients.consumer(config, group), new ByteArrayDeserializer(),
                new ByteArrayDeserializer()), new AvroEventDeserializer(registry), new FeedWorkerHandler(worker, clock),
                new DeadLetterWriter(dlq, deadLetters, group, FeedWorkerMain.NAME, meters),
                ConsumerLoop.Settings.of(FeedWorkerMain.NAME, group, List.of(fanout)), clock, meters);
        Thread thread = new Thread(loop, "ops-feed-worker-it");
        thread.start();
        return () -> {
            loop.close();
            thread.join(10_000);
            affinity.close();
        };
    }

    /** The home feed as feed-service wires it over these stores, with a generator deadline for a loaded box. */
    public HomeFeed homeFeed(HomeFeedThreads threads, RedisLastReadStore lastReads) {
        HomeFeedSettings settings = HomeFeedSettings.from(config).withGeneratorDeadline(Duration.ofSeconds(30))
                .withJournalDeadline(Duration.ofSeconds(30));
        return FeedServiceServer.homeFeed(config, settings, pools, feeds, lastReads, new MysqlCanonicalReads(db), graph, threads,
                HomeFeedListener.NONE, Clock.systemUTC());
    }

    /** Where the home feed records reads: a fresh prefix, as the fan-out does not run here. */
    public RedisLastReadStore lastReads() {
        return RedisLastReadStore.connect(RedisMasterConfig.fixed(config), () -> RedisShards.defaultShardMap(config),
                lastReadPrefix, Duration.ofSeconds(5));
    }

    /** An operator's command line against this world; exit code and what it printed. */
    public record Run(int code, String out, String err) {}

    public Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = OperationsCli.run(() -> config, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), args);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Override
    public void close() throws Exception {
        events.close();
        pools.close();
        hbase.close();
        graphConnections.close();
        zk.close();
        db.close();
        sources.close();
    }
}
