package dev.pinfeed.followergraph.redis;

import dev.pinfeed.config.PinfeedConfig;
import org.apache.curator.framework.CuratorFramework;
import dev.pinfeed.config.zookeeper.CuratorClients;

/**
 * A started Curator client on the stack's application ZooKeeper, for tests (this module's and, through
 * the test-jar, its users'). The caller closes it. Services get theirs from their own process setup.
 */
public final class TestZookeeper {

    private TestZookeeper() {}

    public static CuratorFramework connect(PinfeedConfig config) {
        return CuratorClients.start(config);
    }
}
