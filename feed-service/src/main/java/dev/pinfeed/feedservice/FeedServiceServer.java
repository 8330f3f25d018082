package dev.pinfeed.feedservice;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.redis.GraphConnections;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.RunningHttpApp;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.RedisClient;

/** The feed-service process: {@code feed.http} serves the read contract (graph queries so far). */
public final class FeedServiceServer {

    public static final String HTTP = "feed.http";
    private static final Logger LOG = LoggerFactory.getLogger(FeedServiceServer.class);

    private FeedServiceServer() {}

    /** The app over {@code graph}; {@code redisMasters} are probed by /health. */
    public static HttpApp app(PinfeedConfig config, GraphStore graph, List<RedisClient> redisMasters, List<String> redisNames) {
        HttpApp.Builder app = HttpApp.builder("feed-service")
                .handlerThreads(config.getInt("feed.handler-threads", 32))
                .openApiResource("/openapi/feed-service.json");
        for (int i = 0; i < redisMasters.size(); i++) {
            RedisClient client = redisMasters.get(i);
            app.healthCheck(redisNames.get(i), client::ping);
        }
        new GraphHttpApi(graph).routes(app);
        IdHttpApi.routes(app);
        return app.build();
    }

    public static void main(String[] args) throws Exception {
        PinfeedConfig config = PinfeedConfig.load();
        HostPort http = config.hostPort(HTTP);
        GraphConnections graph;
        RunningHttpApp running;
        List<RedisClient> masters = config.redisInstances().stream().map(h -> RedisClient.create(h.master().host(), h.master().port())).toList();
        // The application ZooKeeper (the graph's shard map); a shared factory for it is on its way.
        CuratorFramework zk = CuratorFrameworkFactory.builder().connectString(config.appZookeeper()).namespace(config.appZookeeperNamespace())
                .retryPolicy(new ExponentialBackoffRetry(200, 5)).sessionTimeoutMs(15_000).connectionTimeoutMs(5_000).build();
        zk.start();
        try {
            graph = GraphConnections.open(config, zk, GraphConnections.keyPrefix(config));
            running = app(config, graph.store(), masters, config.redisInstances().stream().map(PinfeedConfig.ReplicatedHost::name).toList())
                    .start(http.host(), http.port());
        } catch (RuntimeException e) {
            System.err.println("feed-service: " + e.getMessage());
            System.exit(2);
            return;
        }
        LOG.info("feed-service listening on {}", running.baseUri());
        CountDownLatch stopped = new CountDownLatch(1);
        GraphConnections toClose = graph;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            running.close();
            toClose.close();
            zk.close();
            masters.forEach(RedisClient::close);
            stopped.countDown();
        }, "feed-service-shutdown"));
        stopped.await();
    }
}
