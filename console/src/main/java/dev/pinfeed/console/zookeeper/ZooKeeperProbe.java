package dev.pinfeed.console.zookeeper;

import dev.pinfeed.console.pipeline.PipelineSources.ServerProbe;
import org.apache.curator.framework.CuratorFramework;

/** The application ZooKeeper: the process's client is connected and answers a read of its namespace. */
public final class ZooKeeperProbe implements ServerProbe {

    private final CuratorFramework zk;

    public ZooKeeperProbe(CuratorFramework zk) {
        this.zk = zk;
    }

    @Override
    public String check() throws Exception {
        if (!zk.getZookeeperClient().isConnected()) throw new IllegalStateException("the client is not connected");
        zk.checkExists().forPath("/");
        return "connected";
    }
}
