package dev.pinfeed.feedservice;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.redis.GraphConnections;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.Meters;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.processorruntime.ProcessMain;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import redis.clients.jedis.RedisClient;

/**
 * The feed-service process: {@code feed.http} serves the read contract (graph queries so far). Runs on
 * {@link ProcessMain}: quiet logging, named start steps that fail with one line, and on SIGTERM the
 * HTTP app stops first, then the stores.
 */
public final class FeedServiceServer {

    public static final String NAME = "feed-service";
    public static final String HTTP = "feed.http";

    private FeedServiceServer() {}

    /** The app over {@code graph}, with its own meter registry; {@code redisMasters} are probed by /health. */
    public static HttpApp app(PinfeedConfig config, GraphStore graph, List<RedisClient> redisMasters, List<String> redisNames) {
        return app(config, graph, redisMasters, redisNames, Meters.newRegistry());
    }

    /** The app over {@code graph}, its meters (and /metrics) in {@code meters}. */
    public static HttpApp app(PinfeedConfig config, GraphStore graph, List<RedisClient> redisMasters, List<String> redisNames,
                              PrometheusMeterRegistry meters) {
        HttpApp.Builder app = HttpApp.builder(NAME)
                .handlerThreads(config.getInt("feed.handler-threads", 32))
                .meterRegistry(meters)
                .openApiResource("/openapi/feed-service.json");
        for (int i = 0; i < redisMasters.size(); i++) {
            RedisClient client = redisMasters.get(i);
            app.healthCheck(redisNames.get(i), client::ping);
        }
        new GraphHttpApi(graph).routes(app);
        IdHttpApi.routes(app);
        return app.build();
    }

    public static void main(String[] args) {
        ProcessMain.run(NAME, ctx -> {
            PinfeedConfig config = ctx.config();
            HostPort http = config.hostPort(HTTP);
            List<PinfeedConfig.ReplicatedHost> redis = config.redisInstances();
            List<RedisClient> masters = redis.stream().map(h -> ctx.closeOnExit(RedisClient.create(h.master().host(), h.master().port())))
                    .toList();
            CuratorFramework zk = ctx.step("connecting to ZooKeeper " + config.appZookeeper(), ctx::curator);
            GraphConnections graph = ctx.closeOnExit(ctx.step("opening the follower graph in Redis",
                    () -> GraphConnections.open(config, zk, GraphConnections.keyPrefix(config))));
            // Registered last, so it closes first: no request runs on closed stores.
            RunningHttpApp running = ctx.closeOnExit(ctx.step("serving HTTP on " + http,
                    () -> app(config, graph.store(), masters, redis.stream().map(PinfeedConfig.ReplicatedHost::name).toList(), ctx.meters())
                            .start(http.host(), http.port())));
            ctx.describe("http " + running.baseUri());
        });
    }
}
