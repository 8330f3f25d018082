package dev.pinfeed.followergraph.redis;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.redismasters.RedisMasterConfig;
import dev.pinfeed.redisshards.RedisShardConfig;
import dev.pinfeed.redisshards.RedisShards;
import org.apache.curator.framework.CuratorFramework;

/**
 * What a graph process opens on the caller's application ZooKeeper client: the sharded Redis
 * instances ({@link RedisShards}: the live shard and master maps) and the graph's store on them.
 * Other Redis adapters of the process follow the same maps through {@link #redis()}.
 */
public final class GraphConnections implements AutoCloseable {

    private final RedisShards redis;
    private final RedisGraphStore store;

    private GraphConnections(RedisShards redis, RedisGraphStore store) {
        this.redis = redis;
        this.store = store;
    }

    /**
     * {@code zk}: a started client in the application namespace ({@link PinfeedConfig#appZookeeperNamespace()}).
     * It stays the caller's: {@link #close()} leaves it open, and it must outlive these connections.
     */
    public static GraphConnections open(PinfeedConfig config, CuratorFramework zk, String keyPrefix) throws Exception {
        RedisShards redis = RedisShards.open(config, zk);
        try {
            return new GraphConnections(redis, RedisGraphStore.connect(redis, keyPrefix));
        } catch (RuntimeException | Error e) {
            redis.close();
            throw e;
        }
    }

    public RedisGraphStore store() {
        return store;
    }

    /** The live shard and master maps the store follows. */
    public RedisShards redis() {
        return redis;
    }

    public RedisShardConfig shards() {
        return redis.shards();
    }

    public RedisMasterConfig masters() {
        return redis.masters();
    }

    /** Closes the store and the map watches; not the ZooKeeper client. */
    @Override
    public void close() {
        store.close();
        redis.close();
    }
}
