package dev.pinfeed.infra.stacktestkit;

import java.io.File;
import java.net.InetSocketAddress;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/**
 * A ZooKeeper server in the test's JVM on a spare port, for tests that rewrite live maps (failover, shard
 * moves) next to servers of their own ({@link dev.pinfeed.infra.stack.SpareServer}), never the shared stack's.
 */
public final class SpareZooKeeper implements AutoCloseable {

    private final ServerCnxnFactory factory;

    private SpareZooKeeper(ServerCnxnFactory factory) {
        this.factory = factory;
    }

    public static SpareZooKeeper start(File dataDir) throws Exception {
        ZooKeeperServer server = new ZooKeeperServer(dataDir, dataDir, 2000);
        ServerCnxnFactory factory = ServerCnxnFactory.createFactory(new InetSocketAddress("127.0.0.1", 0), 50);
        factory.startup(server);
        return new SpareZooKeeper(factory);
    }

    /** A started client in pinfeed's application namespace; the caller closes it. */
    public CuratorFramework curator() {
        CuratorFramework zk = CuratorFrameworkFactory.builder().connectString("127.0.0.1:" + factory.getLocalPort())
                .namespace("pinfeed").retryPolicy(new ExponentialBackoffRetry(100, 3)).build();
        zk.start();
        return zk;
    }

    @Override
    public void close() {
        factory.shutdown();
    }
}
