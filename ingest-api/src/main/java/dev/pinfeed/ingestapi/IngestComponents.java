package dev.pinfeed.ingestapi;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.eventsschema.CachingSchemaRegistryClient;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import dev.pinfeed.idallocator.IdSettings;
import dev.pinfeed.idallocator.ShardPlacement;
import dev.pinfeed.idallocator.ShardedIdAllocator;
import dev.pinfeed.idallocator.TimeSortableIdGenerator;
import dev.pinfeed.idallocator.TimeSortableLayout;
import dev.pinfeed.idallocator.mysql.MysqlSequenceStore;
import dev.pinfeed.ingestapi.core.CachingObjectDirectory;
import dev.pinfeed.ingestapi.core.IdSource;
import dev.pinfeed.ingestapi.core.IngestService;
import dev.pinfeed.ingestapi.kafka.KafkaEventPublisher;
import dev.pinfeed.ingestapi.mysql.MysqlObjectDirectory;
import dev.pinfeed.ingestapi.mysql.MysqlUsernameIndex;
import dev.pinfeed.ingestapi.redis.RedisIdempotencyStore;
import dev.pinfeed.mysqlshards.MysqlShardConfig;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.mysqlshards.ShardDataSources;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * Wires the ingest core to the real stores named by {@link PinfeedConfig}: Kafka + registry,
 * the MySQL shards (id blocks, object directory, username index; routed by the live shard map in
 * ZooKeeper, so shard moves and failovers need no restart) and Redis (idempotency keys).
 * Shared by the HTTP server and the Java producer client.
 */
public final class IngestComponents implements AutoCloseable {

    public static final String INSTANCE_SHARD = "ingest.instance-shard";
    public static final String PUBLISH_TIMEOUT_MS = "ingest.publish-timeout-ms";
    public static final String DIRECTORY_CACHE_ENTRIES = "ingest.directory-cache-entries";

    private final PinfeedConfig config;
    private final CuratorFramework zookeeper;
    private final MysqlShardConfig shards;
    private final MysqlSequenceStore sequences;
    private final ShardedIdAllocator allocator;
    private final ShardDataSources mysql;
    private final CachingObjectDirectory directory;
    private final MysqlUsernameIndex usernames;
    private final KafkaEventPublisher publisher;
    private final RedisIdempotencyStore idempotency;
    private final IngestService service;
    /** One client for the registry probe (/health may be polled every few seconds). */
    private final HttpClient healthHttp = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /**
     * @param topicOverrides standard topic → topic to publish to instead (tests use fresh topics)
     * @param redisPrefix    prefix of every Redis key this instance writes ({@code pinfeed:} in production)
     */
    public IngestComponents(PinfeedConfig config, Map<String, String> topicOverrides, String redisPrefix, Properties producerOverrides) {
        this.config = config;
        IdSettings ids = IdSettings.from(config);
        this.zookeeper = appZookeeper(config);
        try {
            this.shards = MysqlShardConfig.watch(zookeeper, config);
        } catch (Exception e) {
            zookeeper.close();
            if (e instanceof RuntimeException r) throw r;
            throw new IllegalStateException("reading the mysql shard map from ZooKeeper failed: " + e.getMessage(), e);
        }
        this.sequences = MysqlSequenceStore.from(config, shards);
        this.allocator = new ShardedIdAllocator(sequences, ids.blockSize());
        RandomGenerator random = new SplittableRandom();
        TimeSortableIdGenerator eventIds = TimeSortableIdGenerator.systemClock(ids.timeLayout(), ids.maxBackwardWait());
        int instanceShard = config.getInt(INSTANCE_SHARD, 0);
        if (instanceShard < 0 || instanceShard > TimeSortableLayout.MAX_SHARD) {
            throw new IllegalStateException(INSTANCE_SHARD + " must be 0-" + TimeSortableLayout.MAX_SHARD + ", is " + instanceShard);
        }
        IdSource idSource = new IdSource(allocator, new ShardPlacement(ids.openShards(), random), eventIds, instanceShard);
        this.mysql = ShardDataSources.from(config, shards, "ingest", 8, MysqlObjectDirectory.DRIVER_PROPERTIES);
        this.directory = new CachingObjectDirectory(new MysqlObjectDirectory(mysql), config.getInt(DIRECTORY_CACHE_ENTRIES, 500_000));
        this.usernames = new MysqlUsernameIndex(mysql);
        this.publisher = new KafkaEventPublisher(config.kafkaBootstrap(),
                new CachingSchemaRegistryClient(new HttpSchemaRegistryClient(config.schemaRegistryUrl())), topicOverrides, producerOverrides);
        this.idempotency = new RedisIdempotencyStore(config.redisInstances().stream().map(PinfeedConfig.ReplicatedHost::master).toList(),
                redisPrefix);
        this.service = new IngestService(idSource, directory, usernames, publisher, Clock.systemUTC(),
                Duration.ofMillis(config.getInt(PUBLISH_TIMEOUT_MS, 30_000)), mysql.shardMap().shardCount());
    }

    /** The application ZooKeeper client (built here until the shared Curator factory lands). */
    private static CuratorFramework appZookeeper(PinfeedConfig config) {
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(config.appZookeeper())
                .namespace(config.appZookeeperNamespace()).retryPolicy(new ExponentialBackoffRetry(200, 5))
                .sessionTimeoutMs(15_000).connectionTimeoutMs(5_000).build();
        client.start();
        return client;
    }

    public static IngestComponents fromConfig(PinfeedConfig config) {
        return new IngestComponents(config, Map.of(), "pinfeed:", new Properties());
    }

    public IngestService service() {
        return service;
    }

    public RedisIdempotencyStore idempotency() {
        return idempotency;
    }

    /** The live MySQL shard map this instance routes by (rejected edits: {@link MysqlShardConfig#rejectedUpdates()}). */
    public MysqlShardConfig shards() {
        return shards;
    }

    /** Named probes of every dependency, for /health: each throws with a one-line reason when down. */
    public Map<String, Runnable> healthChecks() {
        Map<String, Runnable> checks = new LinkedHashMap<>();
        checks.put("kafka", () -> publisher.checkReachable(EventTopics.PINS, Duration.ofSeconds(2)));
        checks.put("schema-registry", this::checkRegistry);
        for (String host : mysql.hosts()) {
            checks.put(host, () -> checkMysql(host));
        }
        checks.put("redis", idempotency::ping);
        return checks;
    }

    private void checkRegistry() {
        try {
            HttpResponse<Void> r = healthHttp.send(HttpRequest.newBuilder(URI.create(config.schemaRegistryUrl() + "/subjects"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding());
            if (r.statusCode() != 200) throw new IllegalStateException("answered HTTP " + r.statusCode());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        } catch (java.io.IOException e) {
            throw new IllegalStateException("unreachable at " + config.schemaRegistryUrl() + ": " + e.getMessage());
        }
    }

    private void checkMysql(String host) {
        MysqlShardMap map = mysql.shardMap();
        if (!map.hosts().contains(host)) return; // moved out of the live map since start: nothing routes there
        try (Connection c = mysql.forHost(host).getConnection(); Statement st = c.createStatement()) {
            st.execute("SELECT 1");
        } catch (Exception e) {
            throw new IllegalStateException("master " + map.master(host) + " unreachable: " + e.getMessage());
        }
    }

    @Override
    public void close() {
        for (AutoCloseable c : List.<AutoCloseable>of(publisher, idempotency, allocator, mysql, sequences, shards, zookeeper)) {
            try {
                c.close();
            } catch (Exception ignored) {
                // closing the rest matters more than one failure at shutdown
            }
        }
    }
}
