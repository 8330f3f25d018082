package dev.pinfeed.config.zookeeper;

import dev.pinfeed.config.PinfeedConfig;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * The one way pinfeed connects to its application ZooKeeper ({@code app.zookeeper}, namespace
 * {@code app.zookeeper.namespace}): the shard maps live there. Retries with backoff; a session
 * survives a ZooKeeper hiccup of up to 15 s.
 */
public final class CuratorClients {

    private CuratorClients() {}

    /** A started client (not yet necessarily connected). */
    public static CuratorFramework start(PinfeedConfig config) {
        return start(config.appZookeeper(), config.appZookeeperNamespace());
    }

    public static CuratorFramework start(String connectString, String namespace) {
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(connectString).namespace(namespace)
                .retryPolicy(new ExponentialBackoffRetry(200, 5)).sessionTimeoutMs(15_000).connectionTimeoutMs(5_000).build();
        client.start();
        return client;
    }

    /** A started client that answered within {@code seconds}; otherwise closed and a one-line error naming the quorum. */
    public static CuratorFramework connected(PinfeedConfig config, int seconds) throws InterruptedException {
        CuratorFramework client = start(config);
        if (!client.blockUntilConnected(seconds, TimeUnit.SECONDS)) {
            client.close();
            throw new IllegalStateException("application ZooKeeper " + config.appZookeeper() + " does not answer (" + seconds + " s)");
        }
        return client;
    }
}
