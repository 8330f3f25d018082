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
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.mysqlshards.MysqlShardConfig;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.processorruntime.ProcessMain;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.sql.Connection;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import redis.clients.jedis.RedisClient;

/**
 * The feed-service process: {@code feed.http} serves the read contract — graph queries and the
 * canonical objects (MySQL shards behind the Redis caches). Keys: {@code feed.handler-threads} (32),
 * {@code feed.mysql.pool-size} (16 per shard host), {@code feed.cache.ttl-seconds} (600),
 * {@code feed.cache.timeout-ms} (250), {@code feed.cache.board-pins} (ids kept per board and order, 1000).
 * Runs on {@link ProcessMain}: quiet logging, named start steps that fail with one line, and on
 * SIGTERM the HTTP app stops first, then the stores.
 */
public final class FeedServiceServer {

    public static final String NAME = "feed-service";
    public static final String HTTP = "feed.http";

    private FeedServiceServer() {}

    /**
     * The app over {@code graph} and {@code reads}; {@code meters} is what /metrics serves (the process's one
     * registry, {@link FeedMetrics} included), {@code health} names the dependencies /health probes.
     */
    public static HttpApp app(PinfeedConfig config, GraphStore graph, CanonicalReads reads, PrometheusMeterRegistry meters,
                              Map<String, HealthCheck> health) {
        HttpApp.Builder app = HttpApp.builder(NAME)
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

    public static void main(String[] args) {
        ProcessMain.run(NAME, ctx -> {
            PinfeedConfig config = ctx.config();
            HostPort http = config.hostPort(HTTP);
            Map<String, RedisClient> redis = RedisCanonicalCache.clients(config.redisInstances(),
                    Duration.ofMillis(config.getInt("feed.cache.timeout-ms", 250)), config.getInt("feed.handler-threads", 32));
            redis.values().forEach(ctx::closeOnExit);
            CuratorFramework zk = ctx.step("connecting to ZooKeeper " + config.appZookeeper(), ctx::curator);
            GraphConnections graph = ctx.closeOnExit(ctx.step("opening the follower graph in Redis",
                    () -> GraphConnections.open(config, zk, GraphConnections.keyPrefix(config))));
            MysqlShardConfig mysqlShards = ctx.closeOnExit(ctx.step("reading the MySQL shard map", () -> MysqlShardConfig.watch(zk, config)));
            ShardDataSources mysql = ctx.closeOnExit(ShardDataSources.from(config, mysqlShards, "feed",
                    config.getInt("feed.mysql.pool-size", 16), Map.of()));
            ShardedDb db = ctx.closeOnExit(new ShardedDb(mysql));
            RedisCanonicalCache cache = new RedisCanonicalCache(redis, graph.shards(),
                    Duration.ofSeconds(config.getInt("feed.cache.ttl-seconds", 600)));
            Map<String, HealthCheck> health = new LinkedHashMap<>();
            redis.forEach((name, client) -> health.put(name, client::ping));
            for (String host : mysql.hosts()) health.put(host, () -> checkMysql(mysql, host));
            CanonicalReads reads = canonicalReads(config, db, cache, new FeedMetrics(ctx.meters()));
            // Registered last, so it closes first: no request runs on closed stores.
            RunningHttpApp running = ctx.closeOnExit(ctx.step("serving HTTP on " + http,
                    () -> app(config, graph.store(), reads, ctx.meters(), health).start(http.host(), http.port())));
            ctx.describe("http " + running.baseUri());
        });
    }

    private static void checkMysql(ShardDataSources mysql, String host) throws Exception {
        if (!mysql.shardMap().hosts().contains(host)) return; // moved out of the live map since start: nothing routes there
        try (Connection c = mysql.connection(host)) {
            if (!c.isValid(2)) throw new IllegalStateException("master " + mysql.master(host) + " does not answer");
        }
    }
}
