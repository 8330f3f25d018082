package dev.pinfeed.feedservice;

import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalReads;
import dev.pinfeed.canonicalstore.reads.CachedCanonicalReads;
import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.canonicalstore.redis.RedisCanonicalCache;
import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.redis.GraphConnections;
import dev.pinfeed.httpkit.HealthCheck;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.Meters;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.mysqlshards.MysqlShardConfig;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.sql.Connection;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.RedisClient;

/**
 * The feed-service process: {@code feed.http} serves the read contract — graph queries and the
 * canonical objects (MySQL shards behind the Redis caches). Keys: {@code feed.handler-threads} (32),
 * {@code feed.mysql.pool-size} (16 per shard host), {@code feed.cache.ttl-seconds} (600),
 * {@code feed.cache.timeout-ms} (250), {@code feed.cache.board-pins} (ids kept per board and order, 1000).
 */
public final class FeedServiceServer {

    public static final String HTTP = "feed.http";
    private static final Logger LOG = LoggerFactory.getLogger(FeedServiceServer.class);

    private FeedServiceServer() {}

    /**
     * The app over {@code graph} and {@code reads}; {@code meters} is what /metrics serves (the process's one
     * registry, {@link FeedMetrics} included), {@code health} names the dependencies /health probes.
     */
    public static HttpApp app(PinfeedConfig config, GraphStore graph, CanonicalReads reads, PrometheusMeterRegistry meters,
                              Map<String, HealthCheck> health) {
        HttpApp.Builder app = HttpApp.builder("feed-service")
                .handlerThreads(config.getInt("feed.handler-threads", 32))
                .meterRegistry(meters)
                .openApiResource("/openapi/feed-service.json");
        health.forEach(app::healthCheck);
        new GraphHttpApi(graph, reads).routes(app);
        new CanonicalHttpApi(reads).routes(app);
        IdHttpApi.routes(app);
        return app.build();
    }

    /** The canonical reads of a process: MySQL through the sharded query API, behind the Redis caches on the graph's shard map. */
    public static CanonicalReads canonicalReads(PinfeedConfig config, ShardedDb db, RedisCanonicalCache cache, FeedMetrics metrics) {
        return new CachedCanonicalReads(new MysqlCanonicalReads(db), cache, metrics,
                config.getInt("feed.cache.board-pins", CachedCanonicalReads.DEFAULT_LIST_SIZE));
    }

    public static void main(String[] args) throws Exception {
        PinfeedConfig config = PinfeedConfig.load();
        HostPort http = config.hostPort(HTTP);
        Map<String, RedisClient> redis = RedisCanonicalCache.clients(config.redisInstances(),
                Duration.ofMillis(config.getInt("feed.cache.timeout-ms", 250)), config.getInt("feed.handler-threads", 32));
        // The application ZooKeeper (the graph's and the MySQL shard maps); a shared factory for it is on its way.
        CuratorFramework zk = CuratorFrameworkFactory.builder().connectString(config.appZookeeper()).namespace(config.appZookeeperNamespace())
                .retryPolicy(new ExponentialBackoffRetry(200, 5)).sessionTimeoutMs(15_000).connectionTimeoutMs(5_000).build();
        zk.start();
        GraphConnections graph;
        MysqlShardConfig mysqlShards;
        ShardDataSources mysql;
        ShardedDb db;
        RunningHttpApp running;
        try {
            graph = GraphConnections.open(config, zk, GraphConnections.keyPrefix(config));
            mysqlShards = MysqlShardConfig.watch(zk, config);
            mysql = ShardDataSources.from(config, mysqlShards, "feed", config.getInt("feed.mysql.pool-size", 16), Map.of());
            db = new ShardedDb(mysql);
            PrometheusMeterRegistry meters = Meters.newRegistry();
            RedisCanonicalCache cache = new RedisCanonicalCache(redis, graph.shards(), Duration.ofSeconds(config.getInt("feed.cache.ttl-seconds", 600)));
            Map<String, HealthCheck> health = new LinkedHashMap<>();
            redis.forEach((name, client) -> health.put(name, client::ping));
            for (String host : mysql.hosts()) health.put(host, () -> checkMysql(mysql, host));
            running = app(config, graph.store(), canonicalReads(config, db, cache, new FeedMetrics(meters)), meters, health)
                    .start(http.host(), http.port());
        } catch (Exception e) {
            System.err.println("feed-service: " + e.getMessage());
            System.exit(2);
            return;
        }
        LOG.info("feed-service listening on {}", running.baseUri());
        CountDownLatch stopped = new CountDownLatch(1);
        GraphConnections graphToClose = graph;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            running.close();
            graphToClose.close();
            db.close();
            mysql.close();
            mysqlShards.close();
            zk.close();
            redis.values().forEach(RedisClient::close);
            stopped.countDown();
        }, "feed-service-shutdown"));
        stopped.await();
    }

    private static void checkMysql(ShardDataSources mysql, String host) throws Exception {
        if (!mysql.shardMap().hosts().contains(host)) return; // moved out of the live map since start: nothing routes there
        try (Connection c = mysql.connection(host)) {
            if (!c.isValid(2)) throw new IllegalStateException("master " + mysql.master(host) + " does not answer");
        }
    }
}
