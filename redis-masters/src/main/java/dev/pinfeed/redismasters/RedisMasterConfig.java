package dev.pinfeed.redismasters;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.PinfeedConfig.ReplicatedHost;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live instance → master address map, kept in ZooKeeper next to the shard maps and watched with a
 * {@link CuratorCache}, so a failover ({@link RedisFailover}) moves every service to the promoted
 * replica without a restart. Seeded with the configured masters when absent; a stored map wins (a
 * process started after a failover must not write to the old master). An edit that does not parse or
 * does not fit the configured pairs is refused with a warning and the previous map stays.
 */
public final class RedisMasterConfig implements Supplier<RedisMasterMap>, AutoCloseable {

    /** Under the application namespace ({@code pinfeed}): {@code /pinfeed/config/redis-masters}. */
    public static final String ZNODE = "/config/redis-masters";
    public static final String ZNODE_KEY = "redis.masters.znode";

    private static final Logger LOG = LoggerFactory.getLogger(RedisMasterConfig.class);

    private final AtomicReference<RedisMasterMap> current;
    private final List<ReplicatedHost> configured;
    private final String path;
    private final CuratorCache cache;
    private final CopyOnWriteArrayList<Consumer<RedisMasterMap>> listeners = new CopyOnWriteArrayList<>();

    private RedisMasterConfig(CuratorFramework zk, String path, RedisMasterMap initial, List<ReplicatedHost> configured) {
        this.current = new AtomicReference<>(initial);
        this.configured = List.copyOf(configured);
        this.path = path;
        if (zk == null) {
            this.cache = null;
            return;
        }
        this.cache = CuratorCache.build(zk, path, CuratorCache.Options.SINGLE_NODE_CACHE);
        cache.listenable().addListener((type, oldData, data) -> {
            if (type == CuratorCacheListener.Type.NODE_DELETED || data == null) {
                LOG.warn("{} was deleted; keeping redis masters {}", path, current.get());
            } else {
                update(new String(data.getData(), StandardCharsets.UTF_8));
            }
        });
        cache.start();
    }

    /** The configured masters, never changing: for tools and tests without ZooKeeper. */
    public static RedisMasterConfig fixed(List<ReplicatedHost> configured) {
        return new RedisMasterConfig(null, null, RedisMasterMap.configured(configured), configured);
    }

    /**
     * Seeds {@code path} with the configured masters if absent, reads it and watches it. Fails if the
     * stored map does not fit the configuration: better not to start than to write to the wrong server.
     * {@code zk} is the caller's (started, in the application namespace) and must outlive the watch.
     */
    public static RedisMasterConfig watch(CuratorFramework zk, String path, List<ReplicatedHost> configured) throws Exception {
        return new RedisMasterConfig(zk, path, read(zk, path, configured), configured);
    }

    /** {@link #watch} at the configured znode ({@value #ZNODE_KEY}, default {@value #ZNODE}). */
    public static RedisMasterConfig watch(PinfeedConfig config, CuratorFramework zk) throws Exception {
        return watch(zk, znode(config), config.redisInstances());
    }

    public static String znode(PinfeedConfig config) {
        return config.get(ZNODE_KEY, ZNODE);
    }

    /** The stored map (seeded when absent), checked against the configuration. */
    public static RedisMasterMap read(CuratorFramework zk, String path, List<ReplicatedHost> configured) throws Exception {
        if (!zk.blockUntilConnected(20, TimeUnit.SECONDS)) throw new IllegalStateException("ZooKeeper does not answer");
        try {
            zk.create().creatingParentsIfNeeded().forPath(path, RedisMasterMap.configured(configured).format().getBytes(StandardCharsets.UTF_8));
        } catch (KeeperException.NodeExistsException kept) {
            // A stored map (perhaps after a failover) wins over the configuration.
        }
        return RedisMasterMap.parse(new String(zk.getData().forPath(path), StandardCharsets.UTF_8)).checkedAgainst(configured);
    }

    /**
     * Compare-and-set: moves {@code instance}'s master from {@code expected} to {@code promoted}, failing
     * if someone else changed that instance's entry since it was read. Returns the new map.
     */
    public static RedisMasterMap promote(CuratorFramework zk, String path, List<ReplicatedHost> configured, String instance,
                                         HostPort expected, HostPort promoted) throws Exception {
        read(zk, path, configured); // seeds it when absent
        while (true) {
            Stat stat = new Stat();
            RedisMasterMap stored = RedisMasterMap.parse(new String(zk.getData().storingStatIn(stat).forPath(path), StandardCharsets.UTF_8));
            if (!stored.masterOf(instance).equals(expected)) {
                throw new IllegalStateException(path + " has " + instance + " at " + stored.masterOf(instance) + ", not " + expected
                        + ": another failover ran meanwhile; nothing changed");
            }
            RedisMasterMap next = stored.withMaster(instance, promoted).checkedAgainst(configured);
            try {
                zk.setData().withVersion(stat.getVersion()).forPath(path, next.format().getBytes(StandardCharsets.UTF_8));
                return next;
            } catch (KeeperException.BadVersionException raced) {
                // Another entry changed between the read and the write: read again and re-check ours.
            }
        }
    }

    private void update(String text) {
        RedisMasterMap next;
        try {
            next = RedisMasterMap.parse(text).checkedAgainst(configured);
        } catch (IllegalArgumentException e) {
            LOG.warn("refusing redis master map in {}: {}; keeping {}", path, e.getMessage(), current.get());
            return;
        }
        RedisMasterMap previous = current.getAndSet(next);
        if (!next.equals(previous)) {
            LOG.info("redis masters are now {}", next);
            listeners.forEach(l -> l.accept(next));
        }
    }

    @Override
    public RedisMasterMap get() {
        return current.get();
    }

    public List<ReplicatedHost> configured() {
        return configured;
    }

    /** Called after each accepted change; the returned handle stops the calls. */
    public Runnable onChange(Consumer<RedisMasterMap> listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    @Override
    public void close() {
        if (cache != null) cache.close();
    }
}
