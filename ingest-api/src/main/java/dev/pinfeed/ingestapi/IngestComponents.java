package dev.pinfeed.ingestapi;

import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalReads;
import dev.pinfeed.canonicalstore.reads.CanonicalObjects;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.eventsschema.CachingSchemaRegistryClient;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import dev.pinfeed.httpkit.HealthCheck;
import dev.pinfeed.idallocator.IdSettings;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardPlacement;
import dev.pinfeed.idallocator.ShardedIdAllocator;
import dev.pinfeed.idallocator.TimeSortableIdGenerator;
import dev.pinfeed.idallocator.TimeSortableLayout;
import dev.pinfeed.ingestapi.core.CachingObjectDirectory;
import dev.pinfeed.ingestapi.core.IdSource;
import dev.pinfeed.ingestapi.core.IdempotencyStore;
import dev.pinfeed.ingestapi.core.IngestService;
import dev.pinfeed.ingestapi.core.PinContents;
import dev.pinfeed.ingestapi.kafka.KafkaEventPublisher;
import dev.pinfeed.ingestapi.kafka.SchemaRegistryProbe;
import dev.pinfeed.ingestapi.mysql.MysqlObjectDirectory;
import dev.pinfeed.ingestapi.mysql.MysqlSequences;
import dev.pinfeed.ingestapi.mysql.MysqlUsernameIndex;
import dev.pinfeed.ingestapi.redis.RedisIdempotencyStore;
import dev.pinfeed.mysqlshards.MysqlShardConfig;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.redismasters.RedisMasterConfig;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.apache.curator.framework.CuratorFramework;

/**
 * Wires the ingest core to the real stores named by {@link PinfeedConfig}: Kafka + registry,
 * the MySQL shards (id blocks, object directory, username index; routed by the live shard map in
 * ZooKeeper, so shard moves and failovers need no restart) and Redis (idempotency keys).
 * Shared by the HTTP server and the embedded pipeline ({@code EmbeddedIngest}). Each adapter owns
 * its readiness check; this class only collects them ({@link #healthChecks()}).
 */
public final class IngestComponents implements AutoCloseable {

    public static final String INSTANCE_SHARD = "ingest.instance-shard";
    public static final String PUBLISH_TIMEOUT_MS = "ingest.publish-timeout-ms";
    public static final String DIRECTORY_CACHE_ENTRIES = "ingest.directory-cache-entries";
    /** How long a cached live pin is trusted before it is read again (a delete through another instance is seen after it). */
    public static final String DIRECTORY_LIVE_TTL_MS = "ingest.directory-live-ttl-ms";

    /**
     * Ingest's Kafka producer settings (durability, batching, compression), then {@code extra}: also the raw baseline's of
     * the ingest benchmark, so that it compares like with like.
     */
    public static Properties producerSettings(PinfeedConfig config, Properties extra) {
        return KafkaEventPublisher.producerSettings(config, extra);
    }

    private final CuratorFramework ownedZookeeper;
    private final MysqlShardConfig shards;
    private final MysqlSequences sequences;
    private final ShardedIdAllocator allocator;
    private final ShardDataSources mysql;
    private final ShardDataSources idPools;
    private final MysqlObjectDirectory mysqlDirectory;
    private final ShardedDb canonicalDb;
    private final MysqlUsernameIndex interestNames;
    private final KafkaEventPublisher publisher;
    private final SchemaRegistryProbe registry;
    private final RedisMasterConfig redisMasters;
    private final RedisIdempotencyStore idempotency;
    private final IngestService service;
    private final List<AutoCloseable> metrics = new ArrayList<>();

    /**
     * Components with their own application ZooKeeper client (embedded use, tests).
     *
     * @param topicOverrides standard topic → topic to publish to instead (tests use fresh topics)
     * @param redisPrefix    prefix of every Redis key this instance writes ({@code pinfeed:} in production)
     */
    public IngestComponents(PinfeedConfig config, Map<String, String> topicOverrides, String redisPrefix, Properties producerOverrides) {
        this(config, CuratorClients.start(config), true, topicOverrides, redisPrefix, producerOverrides);
    }

    private IngestComponents(PinfeedConfig config, CuratorFramework zookeeper, boolean ownsZookeeper, Map<String, String> topicOverrides,
                             String redisPrefix, Properties producerOverrides) {
        this.ownedZookeeper = ownsZookeeper ? zookeeper : null;
        IdSettings ids = IdSettings.from(config);
        try {
            this.shards = MysqlShardConfig.watch(zookeeper, config);
            this.redisMasters = RedisMasterConfig.watch(config, zookeeper);
        } catch (Exception e) {
            if (ownsZookeeper) zookeeper.close();
            if (e instanceof RuntimeException r) throw r;
            throw new IllegalStateException("reading the shard maps from ZooKeeper failed: " + e.getMessage(), e);
        }
        this.idPools = ShardDataSources.from(config, shards, "ids", 4, Map.of());
        this.sequences = new MysqlSequences(idPools);
        this.allocator = new ShardedIdAllocator(sequences, ids.blockSize());
        RandomGenerator random = new SplittableRandom();
        TimeSortableIdGenerator eventIds = TimeSortableIdGenerator.systemClock(ids.timeLayout(), ids.maxBackwardWait());
        int instanceShard = config.getInt(INSTANCE_SHARD, 0);
        if (instanceShard < 0 || instanceShard > TimeSortableLayout.MAX_SHARD) {
            throw new IllegalStateException(INSTANCE_SHARD + " must be 0-" + TimeSortableLayout.MAX_SHARD + ", is " + instanceShard);
        }
        IdSource idSource = new IdSource(allocator, new ShardPlacement(new NewUserShards(shards, ids.openShards()), random), eventIds, instanceShard);
        this.mysql = ShardDataSources.from(config, shards, "ingest", 8, MysqlObjectDirectory.DRIVER_PROPERTIES);
        this.mysqlDirectory = new MysqlObjectDirectory(mysql);
        Clock clock = Clock.systemUTC();
        CachingObjectDirectory directory = new CachingObjectDirectory(mysqlDirectory, config.getInt(DIRECTORY_CACHE_ENTRIES, 500_000),
                Duration.ofMillis(config.getInt(DIRECTORY_LIVE_TTL_MS, 5_000)), clock);
        MysqlUsernameIndex usernames = new MysqlUsernameIndex(mysql);
        this.interestNames = MysqlUsernameIndex.interestNames(mysql);
        this.publisher = new KafkaEventPublisher(config,
                new CachingSchemaRegistryClient(HttpSchemaRegistryClient.from(config)), topicOverrides, producerOverrides);
        this.registry = new SchemaRegistryProbe(config);
        this.idempotency = new RedisIdempotencyStore(RedisIdempotencyStore.clients(redisMasters), redisPrefix);
        // A repin copies its parent's content from the canonical store (one pin row read per repin).
        this.canonicalDb = new ShardedDb(mysql);
        MysqlCanonicalReads canonical = new MysqlCanonicalReads(canonicalDb);
        PinContents contents = pinId -> Optional.ofNullable(canonical.objects(ObjectType.PIN, List.of(pinId)).get(pinId))
                .flatMap(json -> CanonicalObjects.pin(json, 0)).map(p -> new PinContents.Content(p.details(), p.link(), p.imageUrl(), p.interests()));
        this.service = new IngestService(idSource, directory, usernames, publisher, clock,
                Duration.ofMillis(config.getInt(PUBLISH_TIMEOUT_MS, 30_000)), () -> mysql.shardMap().shardCount(), contents,
                interestNames);
    }

    /** The production components, on the process's application ZooKeeper client (the caller keeps and closes it). */
    public static IngestComponents forProcess(PinfeedConfig config, CuratorFramework zookeeper) {
        return new IngestComponents(config, zookeeper, false, Map.of(), "pinfeed:", new Properties());
    }

    /** The production components with their own ZooKeeper client (the embedded pipeline). */
    public static IngestComponents fromConfig(PinfeedConfig config) {
        return new IngestComponents(config, Map.of(), "pinfeed:", new Properties());
    }

    public IngestService service() {
        return service;
    }

    public IdempotencyStore idempotency() {
        return idempotency;
    }

    /** The live MySQL shard map this instance routes by (rejected edits: {@link MysqlShardConfig#rejectedUpdates()}). */
    public MysqlShardConfig shards() {
        return shards;
    }

    /** Every adapter's readiness checks, by store name: Kafka, the registry, each MySQL shard host, Redis. */
    public Map<String, HealthCheck> healthChecks() {
        Map<String, HealthCheck> checks = new LinkedHashMap<>();
        checks.putAll(publisher.healthChecks());
        checks.putAll(registry.healthChecks());
        checks.putAll(mysqlDirectory.healthChecks());
        checks.putAll(idempotency.healthChecks());
        return checks;
    }

    /** Binds the Kafka producer's and the MySQL pools' metrics to {@code meters} (before the first request). */
    public void bindMetrics(MeterRegistry meters) {
        metrics.add(publisher.bindMetrics(meters));
        mysql.bindMetrics(meters);
        idPools.bindMetrics(meters);
    }

    /** Closes the adapters (and the ZooKeeper client, when it is this instance's own). */
    @Override
    public void close() {
        List<AutoCloseable> all = new ArrayList<>(metrics);
        all.addAll(List.of(publisher, idempotency, redisMasters, allocator, canonicalDb, interestNames, mysql, sequences, shards));
        if (ownedZookeeper != null) all.add(ownedZookeeper);
        for (AutoCloseable c : all) {
            try {
                c.close();
            } catch (Exception ignored) {
                // closing the rest matters more than one failure at shutdown
            }
        }
    }
}
