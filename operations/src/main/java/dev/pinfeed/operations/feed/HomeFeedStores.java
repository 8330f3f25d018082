package dev.pinfeed.operations.feed;

import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalReads;
import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.feedstore.MaterializedFeedStore;
import dev.pinfeed.feedstore.NoticingPoolStore;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.QuietPools;
import dev.pinfeed.feedstore.hbase.HBasePoolStore;
import dev.pinfeed.feedstore.hbase.HBaseStages;
import dev.pinfeed.feedstore.redis.RedisQuietPools;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.redis.GraphConnections;
import dev.pinfeed.mysqlshards.MysqlShardConfig;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.redisshards.RedisShards;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;

/**
 * What the home-feed commands ({@code verify pools}, {@code feed rebuild}) work on, opened from the
 * configuration as the services open them: the follower graph (Redis, the live shard and master maps),
 * the canonical store (the MySQL shards' masters, no cache: the truth), and the pools and the materialized
 * feed, each on its home HBase cluster ({@link dev.pinfeed.feedstore.hbase.HBaseLayout}). Never a stage's standby:
 * it is a replica, written by replication alone.
 */
public final class HomeFeedStores implements AutoCloseable {

    private final Deque<AutoCloseable> opened = new ArrayDeque<>();
    private GraphStore graph;
    private ShardedDb db;
    private CanonicalReads canonical;
    private HBasePoolStore pools;
    private PoolStore poolWrites;
    private MaterializedFeedStore feeds;

    private HomeFeedStores() {}

    /** {@code writable}: the pools may be written (else they are opened read-only, and a write throws). */
    public static HomeFeedStores open(PinfeedConfig config, boolean writable) throws Exception {
        HomeFeedStores s = new HomeFeedStores();
        try {
            CuratorFramework zk = s.closing(CuratorClients.connected(config, 20));
            GraphConnections graph = s.closing(GraphConnections.open(config, zk, RedisShards.keyPrefix(config)));
            s.graph = graph.store();
            MysqlShardConfig shardMap = s.closing(MysqlShardConfig.watch(zk, config));
            ShardDataSources sources = s.closing(ShardDataSources.from(config, shardMap, "pinfeed-operations", 4, Map.of()));
            s.db = s.closing(new ShardedDb(sources));
            s.canonical = new MysqlCanonicalReads(s.db);
            HBaseStages hbase = s.closing(HBaseStages.connect(config));
            s.pools = s.closing(writable ? hbase.pools() : hbase.readOnlyPools());
            // Written entries noticed as feed-worker's are: a reader whose pools were quiet reads them again.
            QuietPools quiet = writable ? s.closing(RedisQuietPools.open(config, graph.redis(), graph.store().keys().prefix())) : QuietPools.NONE;
            s.poolWrites = NoticingPoolStore.over(s.pools, quiet, e -> {
                throw e; // the entries are written: a rerun (idempotent) notices them
            });
            s.feeds = hbase.materializedFeed();
            return s;
        } catch (Exception | Error e) {
            s.close();
            throw e;
        }
    }

    private <T extends AutoCloseable> T closing(T resource) {
        opened.push(resource);
        return resource;
    }

    public GraphStore graph() {
        return graph;
    }

    public ShardedDb db() {
        return db;
    }

    public CanonicalReads canonical() {
        return canonical;
    }

    /** The pools, also as {@link dev.pinfeed.feedstore.PoolRows}. */
    public HBasePoolStore pools() {
        return pools;
    }

    /** The pools for commands that add entries: each write noticed in the quiet pools ({@link QuietPools}), as the services do. */
    public PoolStore poolWrites() {
        return poolWrites;
    }

    public MaterializedFeedStore feeds() {
        return feeds;
    }

    /** Closes what was opened, the last first. */
    @Override
    public void close() {
        while (!opened.isEmpty()) {
            try {
                opened.pop().close();
            } catch (Exception e) {
                // closing on the way out: the command's own result stands
            }
        }
    }
}
