package dev.pinfeed.feedservice;

import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalReads;
import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalSeed;
import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.canonicalstore.reads.CanonicalSeed;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.redis.GraphConnections;
import dev.pinfeed.followergraph.redis.TestZookeeper;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The graph endpoints over the real Redis instances (shard map from ZooKeeper), keys under a fresh
 * prefix; users and boards seeded in the real MySQL shards under fresh ids.
 */
@ExtendWith(StackExtension.class)
class GraphHttpApiIT extends GraphHttpApiContract {

    private static TestStack stack;
    private static CuratorFramework zk;
    private static GraphConnections graph;
    private static ShardDataSources mysql;
    private static ShardedDb db;

    @BeforeAll
    static void connect(TestStack testStack) throws Exception {
        stack = testStack;
        zk = TestZookeeper.connect(stack.config());
        graph = GraphConnections.open(stack.config(), zk, stack.keyPrefix("feed-graph"));
        mysql = ShardDataSources.from(stack.config(), "graph-http-it", 4);
        db = new ShardedDb(mysql);
    }

    @AfterAll
    static void disconnect() {
        graph.close();
        zk.close();
        db.close();
        mysql.close();
    }

    @Override
    protected GraphStore store() {
        return graph.store();
    }

    @Override
    protected CanonicalReads reads() {
        return new MysqlCanonicalReads(db);
    }

    @Override
    protected CanonicalSeed seed() {
        return new MysqlCanonicalSeed(db, (id, keys) -> {});
    }

    @Override
    protected long freshLocal() {
        return (1L << 35) | (stack.freshId() & ((1L << 35) - 1));
    }
}
