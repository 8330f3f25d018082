package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/**
 * What the failover ITs share: servers of their own on spare ports (never the shared stack's), an
 * in-process ZooKeeper for the live maps, and waiting for a writer's acknowledgements.
 */
final class FailoverFixtures {

    private FailoverFixtures() {}

    static ServerCnxnFactory startZooKeeper(File dir) throws Exception {
        ZooKeeperServer server = new ZooKeeperServer(dir, dir, 2000);
        ServerCnxnFactory factory = ServerCnxnFactory.createFactory(new InetSocketAddress("127.0.0.1", 0), 50);
        factory.startup(server);
        return factory;
    }

    /** A started client in the application namespace on {@code server}. */
    static CuratorFramework curator(ServerCnxnFactory server) {
        CuratorFramework zk = CuratorFrameworkFactory.builder().connectString("127.0.0.1:" + server.getLocalPort())
                .namespace("pinfeed").retryPolicy(new ExponentialBackoffRetry(100, 3)).build();
        zk.start();
        return zk;
    }

    /** Starts {@code spec} as {@code process} and waits until it is healthy. */
    static void start(LocalStack stack, ServerSpec spec, ManagedProcess process) throws Exception {
        stack.prepare(spec);
        ProcessHandle h = process.start(spec.command());
        long deadline = System.nanoTime() + spec.startTimeout().toNanos();
        while (!spec.healthy()) {
            assertThat(h.isAlive()).as(spec.name() + " exited during start: " + process.tail(20)).isTrue();
            assertThat(System.nanoTime()).as(spec.name() + " not healthy in " + spec.startTimeout()).isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    static void awaitAcks(Set<Long> acknowledged, int count, Duration patience) {
        long deadline = System.nanoTime() + patience.toNanos();
        while (acknowledged.size() < count) {
            assertThat(System.nanoTime()).as("only " + acknowledged.size() + " of " + count + " writes acknowledged in " + patience).isLessThan(deadline);
            pause(20);
        }
    }

    static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
