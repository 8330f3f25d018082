package dev.pinfeed.pipelinetests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalReads;
import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalWriter;
import dev.pinfeed.canonicalstore.reads.CachedCanonicalReads;
import dev.pinfeed.canonicalstore.redis.RedisCacheInvalidator;
import dev.pinfeed.canonicalstore.redis.RedisCanonicalCache;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.eventsschema.AvroEventDeserializer;
import dev.pinfeed.eventsschema.CachingSchemaRegistryClient;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import dev.pinfeed.eventsschema.SchemaRegistryClient;
import dev.pinfeed.fanoutstreams.FanoutSettings;
import dev.pinfeed.fanoutstreams.kafka.FanoutStreamsApp;
import dev.pinfeed.fanoutstreams.kafka.RelatedStreamsApp;
import dev.pinfeed.fanoutstreams.related.RelatedSettings;
import dev.pinfeed.feedservice.FeedMetrics;
import dev.pinfeed.feedservice.FeedServiceServer;
import dev.pinfeed.feedservice.HomeFeedThreads;
import dev.pinfeed.feedservice.ReaderAuth;
import dev.pinfeed.feedservice.homefeed.HomeFeed;
import dev.pinfeed.feedservice.homefeed.HomeFeedSettings;
import dev.pinfeed.feedstore.NoticingPoolStore;
import dev.pinfeed.feedstore.QuietPools;
import dev.pinfeed.feedstore.hbase.HBaseMaterializedFeedStore;
import dev.pinfeed.feedstore.hbase.HBasePoolStore;
import dev.pinfeed.feedstore.hbase.HBaseStages;
import dev.pinfeed.feedstore.redis.RedisCelebrityPins;
import dev.pinfeed.feedstore.redis.RedisInterestPins;
import dev.pinfeed.feedstore.redis.RedisLastReadStore;
import dev.pinfeed.feedstore.redis.RedisQuietPools;
import dev.pinfeed.feedstore.scoring.WeightedScorer;
import dev.pinfeed.feedworker.FeedWorker;
import dev.pinfeed.feedworker.WorkerMetrics;
import dev.pinfeed.feedworker.WorkerSettings;
import dev.pinfeed.feedworker.canonical.CanonicalReadsPins;
import dev.pinfeed.feedworker.process.FeedWorkerHandler;
import dev.pinfeed.feedworker.process.FeedWorkerMain;
import dev.pinfeed.feedworker.redis.RedisAffinityStore;
import dev.pinfeed.followergraph.redis.GraphConnections;
import dev.pinfeed.graphprocessor.GraphProcessorMain;
import dev.pinfeed.httpkit.Meters;
import dev.pinfeed.httpkit.ReaderClaims;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.ingestapi.IngestApiServer;
import dev.pinfeed.ingestapi.IngestComponents;
import dev.pinfeed.ingestapi.client.EmbeddedIngest;
import dev.pinfeed.ingestapi.core.IngestCommand;
import dev.pinfeed.ingestapi.core.IngestService.Outcome;
import dev.pinfeed.ingestapi.http.TokenAuthenticator;
import dev.pinfeed.ingestapi.kafka.FreshTopics;
import dev.pinfeed.materializer.EventPlanner;
import dev.pinfeed.materializer.MaterializerHandler;
import dev.pinfeed.materializer.MaterializerMain;
import dev.pinfeed.materializer.MaterializerTopics;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.processorruntime.BatchHandler;
import dev.pinfeed.processorruntime.ConsumerLoop;
import dev.pinfeed.processorruntime.DeadLetterWriter;
import dev.pinfeed.processorruntime.KafkaClients;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import redis.clients.jedis.RedisClient;

/**
 * The whole home-feed pipeline in this JVM, wired as each process's main wires it, kept apart from
 * everything else on the shared stack by names: fresh event, fan-out and dead-letter topics, fresh
 * consumer groups and Streams application id, a fresh key prefix for the follower graph and the
 * affinities. Objects get their ids from the real id allocator through ingest, so they are fresh in
 * the shared MySQL shards and HBase tables.
 *
 * <p>Deviations from the processes, on purpose: one Redis graph connection set is shared by the graph
 * processor, the fan-out, the worker and feed-service (the same keys they would each open), and
 * feed-service reads HBase primary only (not {@code SpeculativeHBaseStores}): a standby answer a
 * replication lag old would make "gone from the feed" assertions racy, and speculative reads have
 * their own IT (feed-store's SpeculativeHBaseStoresIT).
 */
final class Pipeline implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    final TestStack stack;
    final PinfeedConfig config;
    final FreshTopics topics;
    final String fanoutTopic;
    final String deadLetters;
    final HBasePoolStore pools;
    final HBaseMaterializedFeedStore feeds;
    final GraphConnections graph;
    final RedisLastReadStore lastReads;
    final RedisCelebrityPins celebrityPins;
    final RedisInterestPins interestPins;
    /** Which readers' pools feed-service skips; the worker notices its pool writes here. */
    final QuietPools quietPools;
    final CachedCanonicalReads reads;
    final HomeFeedThreads threads;
    /** The shard pools of the canonical store (for snapshots of its rows). */
    final ShardedDb db;
    /** The materializer's topics and handler, for a second consumer group that replays them ({@link #replayCanonical}). */
    private final MaterializerTopics canonicalTopics;
    private final BatchHandler canonicalHandler;
    /** The feed worker's consumer group on the fan-out topic, follows and likes ({@link #caughtUp(String, List)}). */
    final String workerGroup;
    /** Where the related-pins applications keep their state. */
    private final Path relatedState;
    /** The related-pins application, when the overrides ask for it ({@code related.enabled=true}); else null. */
    final RelatedStreamsApp related;

    private final List<AutoCloseable> open = new ArrayList<>();
    private final SchemaRegistryClient registry;
    private final EmbeddedIngest ingest;
    final RunningHttpApp feedService;
    final ReaderAuth.SelfIssued readers;
    /** ingest-api over HTTP (the same components as {@link #send}), for callers of the public API such as the console. */
    final RunningHttpApp ingestHttp;
    /** The producer token {@link #ingestHttp} accepts, allowed every event type. */
    final String producerToken = "pf_test_" + java.util.UUID.randomUUID();
    private final HttpClient http = HttpClient.newHttpClient();

    Pipeline(TestStack stack, Path fanoutState) throws Exception {
        this(stack, fanoutState, Map.of());
    }

    /** With {@code overrides} over the stack's configuration (every processor reads them). */
    Pipeline(TestStack stack, Path fanoutState, Map<String, String> overrides) throws Exception {
        this.stack = stack;
        this.config = stack.config().withOverrides(overrides);
        topics = new FreshTopics(stack);
        fanoutTopic = stack.uniqueTopic("e2e-fanout");
        deadLetters = stack.uniqueTopic("e2e-dlq");
        stack.createTopics(Map.of(fanoutTopic, 3, EventTopics.bulkLaneOf(fanoutTopic), 3, deadLetters, 1));
        registry = new CachingSchemaRegistryClient(HttpSchemaRegistryClient.from(config));

        CuratorFramework zk = closing(CuratorClients.connected(config, 20));
        graph = closing(GraphConnections.open(config, zk, stack.keyPrefix("e2e-graph")));
        lastReads = closing(RedisLastReadStore.open(config, graph.redis(), graph.store().keys().prefix()));
        celebrityPins = closing(RedisCelebrityPins.open(config, graph.redis(), graph.store().keys().prefix()));
        interestPins = closing(RedisInterestPins.open(config, graph.redis(), graph.store().keys().prefix()));
        ShardDataSources mysql = closing(ShardDataSources.from(config, "e2e", 8));
        db = closing(new ShardedDb(mysql));
        Map<String, RedisClient> redis = RedisCanonicalCache.clients(config, Duration.ofMillis(250), 8);
        redis.values().forEach(this::closing);
        FeedMetrics feedMetrics = new FeedMetrics(new SimpleMeterRegistry());
        // The worker and feed-service both read the canonical store behind the caches, as their mains do.
        reads = new CachedCanonicalReads(new MysqlCanonicalReads(db), new RedisCanonicalCache(redis, graph.shards(), Duration.ofMinutes(10)),
                feedMetrics, CachedCanonicalReads.DEFAULT_LIST_SIZE);
        HBaseStages hbase = closing(HBaseStages.connect(config));
        pools = closing(hbase.pools());
        feeds = hbase.materializedFeed();

        // graph-processor (GraphProcessorMain): follows and boards into the graph.
        consume(GraphProcessorMain.NAME, List.of(topic(EventTopics.FOLLOWS), topic(EventTopics.BOARDS)),
                GraphProcessorMain.handler(graph.store(), config, new SimpleMeterRegistry()), Duration.ofMinutes(1));

        // materializer (MaterializerMain): the canonical objects into MySQL, caches invalidated after each commit.
        canonicalTopics = new MaterializerTopics(topic(EventTopics.USERS), topic(EventTopics.BOARDS),
                topic(EventTopics.PINS), topic(EventTopics.LIKES), topic(EventTopics.COMMENTS), topic(EventTopics.INTERESTS));
        MysqlCanonicalWriter writer = closing(new MysqlCanonicalWriter(db));
        RedisCacheInvalidator invalidator = closing(RedisCacheInvalidator.connect(config, graph.shards()));
        canonicalHandler = new MaterializerHandler(new EventPlanner(), writer, invalidator, canonicalTopics, new SimpleMeterRegistry());
        consume(MaterializerMain.NAME, canonicalTopics.all(), canonicalHandler, Duration.ofMinutes(1));

        // fanout-streams (FanoutStreamsMain): pins → fan-out chunks, exactly-once, the activity check on Redis.
        FanoutSettings fanout = FanoutSettings.from(config)
                .withTopics(stack.uniqueName("e2e_fanout"), topic(EventTopics.PINS), fanoutTopic, deadLetters).withStateDir(fanoutState);
        closing(FanoutStreamsApp.start(fanout, config, "0", registry, graph.store(), lastReads, celebrityPins, interestPins, new SimpleMeterRegistry(),
                Clock.systemUTC()));

        // fanout-streams' related-pins application (FanoutStreamsMain runs it beside the fan-out): only when a test asks for it,
        // so the other pipelines' feeds hold only what they assert.
        relatedState = fanoutState.resolve("related");
        related = "true".equals(overrides.get("related.enabled")) ? startRelated(stack.uniqueName("e2e_related")) : null;

        // feed-worker (FeedWorkerMain): chunks, follows and likes into the pools.
        WorkerSettings workerSettings = WorkerSettings.from(config);
        RedisAffinityStore affinity = closing(RedisAffinityStore.connect(config, graph.shards(),
                stack.keyPrefix("e2e-affinity")));
        // Its pool writes noticed in the quiet pools feed-service skips, as the mains wire them.
        quietPools = closing(RedisQuietPools.open(config, graph.redis(), graph.store().keys().prefix()));
        WorkerMetrics workerMetrics = new WorkerMetrics(new SimpleMeterRegistry());
        FeedWorker worker = new FeedWorker(NoticingPoolStore.over(pools, quietPools, workerMetrics::quietPoolsNoticeFailed), feeds, graph.store(),
                new CanonicalReadsPins(reads), affinity, new WeightedScorer(WeightedScorer.Settings.from(config), Clock.systemUTC()),
                workerSettings, Clock.systemUTC(), workerMetrics);
        List<String> workerTopics = List.of(fanoutTopic, topic(EventTopics.FOLLOWS), topic(EventTopics.LIKES));
        workerGroup = consume(FeedWorkerMain.NAME, workerTopics, new FeedWorkerHandler(worker, Clock.systemUTC()),
                workerSettings.waitGrace().multipliedBy(2).plusMinutes(1));
        consume(FeedWorkerMain.NAME, List.of(FeedWorkerMain.bulkLane(workerTopics)), new FeedWorkerHandler(worker, Clock.systemUTC()),
                workerSettings.waitGrace().multipliedBy(2).plusMinutes(1));

        // feed-service (FeedServiceServer): the HTTP app with the home feed route. The generator's deadline is
        // raised for a loaded 2-core box: these tests are about the pipeline; the 50 ms default has its benchmark.
        threads = closing(new HomeFeedThreads(2, 1000));
        PrometheusMeterRegistry meters = Meters.newRegistry();
        // 30 s: a first page's pooled pins are asserted at once (no retry), so the generator must finish in time here.
        HomeFeed homeFeed = FeedServiceServer.homeFeed(config, HomeFeedSettings.from(config).withGeneratorDeadline(Duration.ofSeconds(30))
                .withJournalDeadline(Duration.ofSeconds(30)),
                pools, feeds, lastReads, reads, reads, graph.store(), celebrityPins, interestPins, quietPools, threads, feedMetrics,
                Clock.systemUTC());
        readers = ReaderAuth.selfIssued(config, Clock.systemUTC());
        feedService = FeedServiceServer.app(config, readers.auth(), graph.store(), reads, homeFeed, meters, Map.of()).start("127.0.0.1", 0);
        open.add(feedService); // closed first (the list is closed in reverse), before the stores it reads

        // ingest-api (EmbeddedIngest): the real service (ids, directory, usernames) publishing to the fresh topics.
        IngestComponents components = new IngestComponents(config, topics.overrides(), stack.keyPrefix("e2e-ingest"), new Properties());
        ingest = closing(new EmbeddedIngest(components.service()::submitAll, components, 1000, Duration.ofMillis(5), 3,
                Duration.ofMillis(100)));
        ingestHttp = closing(IngestApiServer.app(config, components, TokenAuthenticator.of(producerToken, "pipeline-tests", "*"))
                .start("127.0.0.1", 0));
    }

    String topic(String standard) {
        return topics.topic(standard);
    }

    /**
     * A second materializer on a fresh consumer group: it reads the canonical topics from offset 0 into the same store, as an
     * operator's replay does. Returns its group ({@link #caughtUp}).
     */
    String replayCanonical() {
        return consume(MaterializerMain.NAME, canonicalTopics.all(), canonicalHandler, Duration.ofMinutes(1));
    }

    /**
     * A related-pins application as FanoutStreamsMain starts it, on this pipeline's topics, as {@code applicationId}: a
     * fresh id reads every pin and like from the start with empty stores (a replay); closed with the pipeline.
     */
    RelatedStreamsApp startRelated(String applicationId) {
        RelatedSettings settings = RelatedSettings.from(config)
                .withTopics(applicationId, topic(EventTopics.PINS), topic(EventTopics.LIKES), fanoutTopic, deadLetters).withStateDir(relatedState);
        return closing(RelatedStreamsApp.start(settings, config, "0", registry, new SimpleMeterRegistry(), Clock.systemUTC()));
    }

    /** Whether {@code group} has committed every partition of the canonical topics to its end. */
    boolean caughtUp(String group) throws Exception {
        return caughtUp(group, canonicalTopics.all());
    }

    /** Whether {@code group} has committed every partition of {@code topics} to its end ({@code read_committed}: markers count). */
    boolean caughtUp(String group, List<String> topics) throws Exception {
        try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(KafkaClients.admin(config))) {
            var committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
            Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> latest = new java.util.HashMap<>();
            for (var d : admin.describeTopics(topics).allTopicNames().get().values()) {
                d.partitions().forEach(p -> latest.put(new org.apache.kafka.common.TopicPartition(d.name(), p.partition()),
                        org.apache.kafka.clients.admin.OffsetSpec.latest()));
            }
            for (var e : admin.listOffsets(latest).all().get().entrySet()) {
                var c = committed.get(e.getKey());
                if (e.getValue().offset() > 0 && (c == null || c.offset() < e.getValue().offset())) return false;
            }
            return true;
        }
    }

    /** A consumer loop on its own thread, as {@code ProcessContext.consume} runs one, on a fresh group; returns the group. */
    private String consume(String processor, List<String> inputs, BatchHandler handler, Duration waitGrace) {
        String group = stack.uniqueName("e2e_" + processor.replace('-', '_'));
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(KafkaClients.consumer(config, group),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        KafkaProducer<byte[], byte[]> dlq = new KafkaProducer<>(KafkaClients.producer(config, group + "-dlq"),
                new ByteArraySerializer(), new ByteArraySerializer());
        DeadLetterWriter writer = closing(new DeadLetterWriter(dlq, deadLetters, group, processor, meters));
        ConsumerLoop loop = new ConsumerLoop(consumer, new AvroEventDeserializer(registry), handler, writer,
                ConsumerLoop.Settings.of(processor, group, inputs).withWaitGrace(waitGrace), Clock.systemUTC(), meters);
        Thread t = new Thread(loop, "e2e-" + processor);
        t.setDaemon(true);
        t.start();
        closing(() -> {
            loop.close();
            t.join(10_000);
        });
        return group;
    }

    private <T extends AutoCloseable> T closing(T resource) {
        open.add(resource);
        return resource;
    }

    // ---- ingest ----

    /** Sends {@code command} through ingest and returns the id it created (0 for edges), failing on a refusal. */
    long send(IngestCommand command) {
        Outcome o = ingest.send(command).join();
        if (!o.accepted()) throw new AssertionError(command + " refused: " + o.rejection());
        return o.createdId();
    }

    /** Sends {@code command} through ingest; its outcome, accepted or not. */
    Outcome tryIngest(IngestCommand command) {
        return ingest.send(command).join();
    }

    long user(String name) {
        return send(new IngestCommand.CreateUser(name + "_" + Long.toString(stack.freshId(), 36), name));
    }

    long board(long owner, String name) {
        return send(new IngestCommand.CreateBoard(owner, name, null));
    }

    long pin(long board, long author, String details) {
        return send(new IngestCommand.CreatePin(board, author, details, "https://example.com/" + details, null));
    }

    // ---- feed-service over HTTP ----

    /** {@code GET path} on feed-service without a token (the public reads); the status and the body. */
    HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(feedService.baseUri() + path)).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** {@code GET path} on feed-service, {@code status} expected; the body. */
    JsonNode get(String path, int status) throws Exception {
        HttpResponse<String> r = get(path);
        if (r.statusCode() != status) throw new AssertionError("GET " + path + ": " + r.statusCode() + " " + r.body());
        return JSON.readTree(r.body());
    }

    /** {@code GET path} on feed-service with {@code user}'s reader token, {@code status} expected; the body. */
    JsonNode getAs(long user, String path, int status) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(feedService.baseUri() + path))
                .header("Authorization", "Bearer " + ReaderClaims.userToken(readers.issuer(), user, Duration.ofMinutes(10)))
                .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != status) throw new AssertionError("GET " + path + " as " + user + ": " + r.statusCode() + " " + r.body());
        return JSON.readTree(r.body());
    }

    /** {@code GET /v1/users/{user}/feed?limit=250}, 200 expected; the body. */
    JsonNode feed(long user) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(feedService.baseUri() + "/v1/users/" + user + "/feed?limit=250"))
                .header("Authorization", "Bearer " + ReaderClaims.userToken(readers.issuer(), user, Duration.ofMinutes(10)))
                .timeout(Duration.ofSeconds(60)).GET().build(), HttpResponse.BodyHandlers.ofString()); // past the 30 s generator deadline
        if (r.statusCode() != 200) throw new AssertionError("feed of " + user + ": " + r.statusCode() + " " + r.body());
        return JSON.readTree(r.body());
    }

    @Override
    public void close() {
        for (int i = open.size() - 1; i >= 0; i--) {
            try {
                open.get(i).close();
            } catch (Exception ignored) {
                // best effort at teardown: the shared stack outlives us
            }
        }
    }

    /** The pins in {@code user}'s pools, any source. */
    java.util.Set<Long> pooled(long user) {
        return pools.all(user).stream().map(dev.pinfeed.feedstore.PoolEntry::pinId).collect(java.util.stream.Collectors.toSet());
    }

    /** A feed page's items by pin id, in order; fails on a pin shown twice in the page. */
    static Map<Long, JsonNode> itemsById(JsonNode page) {
        Map<Long, JsonNode> out = new java.util.LinkedHashMap<>();
        page.path("items").forEach(i -> {
            JsonNode previous = out.put(Long.parseLong(i.path("pin").path("id").asText()), i);
            org.assertj.core.api.Assertions.assertThat(previous).as("a pin shown twice in one page: %s", i).isNull();
        });
        return out;
    }
}
