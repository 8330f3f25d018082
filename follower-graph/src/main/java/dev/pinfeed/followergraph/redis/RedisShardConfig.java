package dev.pinfeed.followergraph.redis;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live shard → instance map, kept in ZooKeeper (the seed keeps shard configuration there) and
 * watched with a {@link CuratorCache}, so an operator moves shards without restarting anything. The
 * znode is seeded when absent; an operator's later edit wins. An edit that does not parse or names
 * an instance this process has no connection for is refused with a warning: the previous map stays.
 */
public final class RedisShardConfig implements Supplier<RedisShardMap>, AutoCloseable {

    /** Under the application namespace ({@code pinfeed}): {@code /pinfeed/config/redis-shards}. */
    public static final String ZNODE = "/config/redis-shards";

    private static final Logger LOG = LoggerFactory.getLogger(RedisShardConfig.class);

    private final AtomicReference<RedisShardMap> current;
    private final Set<String> knownInstances;
    private final String path;
    private final CuratorCache cache;
    private final CopyOnWriteArrayList<Consumer<RedisShardMap>> listeners = new CopyOnWriteArrayList<>();

    private RedisShardConfig(CuratorFramework zk, String path, RedisShardMap initial, Set<String> knownInstances) {
        this.current = new AtomicReference<>(initial);
        this.knownInstances = Set.copyOf(knownInstances);
        this.path = path;
        this.cache = CuratorCache.build(zk, path, CuratorCache.Options.SINGLE_NODE_CACHE);
        cache.listenable().addListener((type, oldData, data) -> {
            if (type == CuratorCacheListener.Type.NODE_DELETED || data == null) {
                LOG.warn("{} was deleted; keeping shard map {}", path, current.get());
            } else {
                update(new String(data.getData(), StandardCharsets.UTF_8));
            }
        });
        cache.start();
    }

    /**
     * Seeds {@code path} with {@code seed} if absent, reads it, and watches it. Fails if the stored map
     * is unusable now: better not to start than to write to the wrong instances. {@code zk} is the
     * caller's (started, in the application namespace); it must outlive this watch.
     */
    public static RedisShardConfig watch(CuratorFramework zk, String path, RedisShardMap seed, Set<String> knownInstances)
            throws Exception {
        if (!zk.blockUntilConnected(20, TimeUnit.SECONDS)) throw new IllegalStateException("ZooKeeper does not answer");
        try {
            zk.create().creatingParentsIfNeeded().forPath(path, seed.format().getBytes(StandardCharsets.UTF_8));
        } catch (KeeperException.NodeExistsException kept) {
            // An existing map (perhaps an operator's) wins over the seed.
        }
        RedisShardMap stored = RedisShardMap.parse(new String(zk.getData().forPath(path), StandardCharsets.UTF_8));
        check(stored, knownInstances);
        return new RedisShardConfig(zk, path, stored, knownInstances);
    }

    private static void check(RedisShardMap map, Set<String> known) {
        for (String instance : map.instances()) {
            if (!known.contains(instance)) throw new IllegalArgumentException("shard map names unknown redis instance " + instance + " (known: " + known + ")");
        }
    }

    private void update(String text) {
        RedisShardMap next;
        try {
            next = RedisShardMap.parse(text);
            check(next, knownInstances);
        } catch (IllegalArgumentException e) {
            LOG.warn("refusing shard map in {}: {}; keeping {}", path, e.getMessage(), current.get());
            return;
        }
        RedisShardMap previous = current.getAndSet(next);
        if (!next.equals(previous)) {
            LOG.info("redis shard map is now {}", next);
            listeners.forEach(l -> l.accept(next));
        }
    }

    @Override
    public RedisShardMap get() {
        return current.get();
    }

    /** Called after each accepted change. */
    public void onChange(Consumer<RedisShardMap> listener) {
        listeners.add(listener);
    }

    @Override
    public void close() {
        cache.close();
    }
}
