package dev.pinfeed.graphprocessor;

import dev.pinfeed.config.PinfeedConfig;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/** What both graph processes (the processor and the rebuild) set up first. */
final class GraphProcess {

    private GraphProcess() {}

    /** Our logging configuration unless one was given; call before the first logger is made. */
    static void configureLogging() {
        if (System.getProperty("log4j2.configurationFile") == null) {
            System.setProperty("log4j2.configurationFile", "log4j2-graph-processor.xml");
        }
        // Our shutdown hook logs the final stats; Log4j's own hook would stop logging before that.
        System.setProperty("log4j.shutdownHookEnabled", "false");
    }

    /** A started client in the application namespace; the caller closes it. (The shared processor runtime will own this.) */
    static CuratorFramework zookeeper(PinfeedConfig config) {
        CuratorFramework zk = CuratorFrameworkFactory.builder().connectString(config.appZookeeper()).namespace(config.appZookeeperNamespace())
                .retryPolicy(new ExponentialBackoffRetry(200, 5)).sessionTimeoutMs(15_000).connectionTimeoutMs(5_000).build();
        zk.start();
        return zk;
    }
}
