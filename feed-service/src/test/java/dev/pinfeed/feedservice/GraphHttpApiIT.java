package dev.pinfeed.feedservice;

import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.redis.GraphConnections;
import dev.pinfeed.followergraph.redis.TestZookeeper;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/** The graph endpoints over the real Redis instances (shard map from ZooKeeper), keys under a fresh prefix. */
@ExtendWith(StackExtension.class)
class GraphHttpApiIT extends GraphHttpApiContract {

    private static TestStack stack;
    private static CuratorFramework zk;
    private static GraphConnections graph;

    @BeforeAll
    static void connect(TestStack testStack) throws Exception {
        stack = testStack;
        zk = TestZookeeper.connect(stack.config());
        graph = GraphConnections.open(stack.config(), zk, stack.keyPrefix("feed-graph"));
    }

    @AfterAll
    static void disconnect() {
        graph.close();
        zk.close();
    }

    @Override
    protected GraphStore store() {
        return graph.store();
    }

    @Override
    protected long freshLocal() {
        return (1L << 35) | (stack.freshId() & ((1L << 35) - 1));
    }
}
