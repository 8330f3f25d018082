package dev.pinfeed.mysqlshards;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.config.zookeeper.WatchedZnode;
import dev.pinfeed.mysqlshards.MysqlShardMap.HostAddresses;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
 * The live MySQL shard map: the znode {@value #ZNODE} (under the application namespace, so
 * {@code /pinfeed/config/mysql-shards}) in {@link MysqlShardMap}'s JSON form (the legacy text form is
 * read too), watched with a {@link CuratorCache} so shard moves and failovers reach a running
 * process. Seeds 000/002: the configuration table lives in ZooKeeper and, on update, is sent to the
 * services that use the shards.
 *
 * <p>An edit that does not parse, leaves a gap or an overlap, names no master, or drops shards the
 * map had is refused: the previous map stays in force, a WARN line says why, and
 * {@link #rejectedUpdates()} / {@link #lastRejection()} show it. A deleted znode keeps the last good
 * map. A legacy-form edit takes addresses from the current map, then from the configuration, so it
 * can never undo a failover it does not mention.
 */
public final class MysqlShardConfig implements Supplier<MysqlShardMap>, AutoCloseable {

    /** Under the application namespace ({@code pinfeed}): {@code /pinfeed/config/mysql-shards}. */
    public static final String ZNODE = "/config/mysql-shards";
    /** Configuration key to watch another znode than {@value #ZNODE}. */
    public static final String ZNODE_KEY = "mysql.shards.znode";

    private static final Logger LOG = LoggerFactory.getLogger(MysqlShardConfig.class);

    /** The refused edit and why. */
    public record Rejection(String reason, String content) {}

    /** What {@link #provision} did. */
    public enum Provisioned { SEEDED, UPGRADED, KEPT }

    private final String path;
    private final HostAddresses configured;
    private volatile MysqlShardMap current;
    private final AtomicLong rejected = new AtomicLong();
    private volatile Rejection lastRejection;
    private final CopyOnWriteArrayList<Consumer<MysqlShardMap>> listeners = new CopyOnWriteArrayList<>();
    private final CuratorCache cache;

    private MysqlShardConfig(CuratorFramework zk, String path, MysqlShardMap initial, HostAddresses configured) {
        this.path = path;
        this.configured = configured;
        this.current = initial;
        this.cache = CuratorCache.build(zk, path, CuratorCache.Options.SINGLE_NODE_CACHE);
        cache.listenable().addListener((type, oldData, data) -> {
            if (type == CuratorCacheListener.Type.NODE_DELETED || data == null) {
                LOG.warn("{} was deleted; keeping the last good mysql shard map {}", path, current.format());
            } else {
                offer(new String(data.getData(), StandardCharsets.UTF_8));
            }
        });
        cache.start();
    }

    /**
     * Reads {@code path} and watches it. While the znode is absent, {@code bootstrap} (the configured
     * map) is in force. A stored map that is unusable now, or has fewer shards than {@code bootstrap},
     * fails the start: better not to start than to write to the wrong host.
     *
     * @param zk         a started client in the application namespace; the caller owns (and closes) it
     * @param configured where the hosts of a legacy-form map live when the current map does not say
     */
    public static MysqlShardConfig watch(CuratorFramework zk, String path, MysqlShardMap bootstrap, HostAddresses configured)
            throws Exception {
        if (!zk.blockUntilConnected(20, TimeUnit.SECONDS)) {
            throw new StoreUnavailableException("zookeeper", "no answer in 20 s; cannot read the mysql shard map " + path);
        }
        MysqlShardMap initial = bootstrap;
        try {
            String stored = new String(zk.getData().forPath(path), StandardCharsets.UTF_8);
            initial = bootstrap.successor(MysqlShardMap.parse(stored, bootstrap.addresses().orElse(configured)));
        } catch (KeeperException.NoNodeException absent) {
            LOG.info("{} does not exist; the configured mysql shard map is in force until it does", path);
        } catch (KeeperException.ConnectionLossException | KeeperException.OperationTimeoutException | KeeperException.SessionExpiredException e) {
            throw new StoreUnavailableException("zookeeper", "reading the mysql shard map " + path + " failed: " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("the mysql shard map in ZooKeeper " + path + " is unusable (" + e.getMessage()
                    + "); fix the znode, see docs/operations.md", e);
        }
        return new MysqlShardConfig(zk, path, initial, configured);
    }

    /** {@link #watch} of {@code mysql.shards.znode} (default {@value #ZNODE}), bootstrapped from the configuration. */
    public static MysqlShardConfig watch(CuratorFramework zk, PinfeedConfig config) throws Exception {
        return watch(zk, znode(config), MysqlShardMap.from(config), HostAddresses.from(config));
    }

    /**
     * The map stored now, for a command that reads it once: the znode seeded from the configuration when
     * absent ({@link #provision}), then read as a watching process would.
     */
    public static MysqlShardMap current(CuratorFramework zk, PinfeedConfig config) throws Exception {
        provision(zk, znode(config), MysqlShardMap.from(config), HostAddresses.from(config));
        try (MysqlShardConfig live = watch(zk, config)) {
            return live.current();
        }
    }

    public static String znode(PinfeedConfig config) {
        return config.get(ZNODE_KEY, ZNODE);
    }

    /**
     * Makes {@code path} hold a JSON map: seeds it from {@code configured} when absent, rewrites a
     * legacy-form map as JSON (its ranges and hosts kept, addresses from {@code addresses}), and
     * keeps a JSON map as it is (an operator's edit wins). Concurrent edits are never overwritten
     * (compare-and-set on the znode version). A stored map that is unusable, or has fewer shards
     * than {@code configured}, is left alone and reported with {@link IllegalStateException}.
     */
    public static Provisioned provision(CuratorFramework zk, String path, MysqlShardMap configured, HostAddresses addresses)
            throws Exception {
        while (true) {
            Stat stat = new Stat();
            String text;
            try {
                text = new String(zk.getData().storingStatIn(stat).forPath(path), StandardCharsets.UTF_8);
            } catch (KeeperException.NoNodeException absent) {
                try {
                    zk.create().creatingParentsIfNeeded().forPath(path, configured.toJson().getBytes(StandardCharsets.UTF_8));
                    return Provisioned.SEEDED;
                } catch (KeeperException.NodeExistsException raced) {
                    continue;
                }
            }
            MysqlShardMap stored;
            try {
                stored = configured.successor(MysqlShardMap.parse(text, addresses));
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException(path + " holds an unusable mysql shard map, left as is: " + e.getMessage()
                        + " (services refuse to start until it is fixed)", e);
            }
            if (MysqlShardMap.isJson(text)) return Provisioned.KEPT;
            try {
                zk.setData().withVersion(stat.getVersion()).forPath(path, stored.toJson().getBytes(StandardCharsets.UTF_8));
                return Provisioned.UPGRADED;
            } catch (KeeperException.BadVersionException raced) {
                // Someone edited it meanwhile: look again rather than overwrite their edit.
            }
        }
    }

    /**
     * Replaces the map in {@code path} with {@code edit} of it, compare-and-set on the znode version (an
     * edit made meanwhile is read again, never overwritten); returns the map written. The edit must be
     * a valid successor ({@link MysqlShardMap#successor}), else {@link IllegalArgumentException}.
     */
    public static MysqlShardMap update(CuratorFramework zk, String path, HostAddresses addresses,
                                       java.util.function.UnaryOperator<MysqlShardMap> edit) throws Exception {
        String written = WatchedZnode.update(zk, path, text -> {
            MysqlShardMap current = MysqlShardMap.parse(text, addresses);
            return current.successor(edit.apply(current)).toJson();
        });
        return MysqlShardMap.parse(written, addresses);
    }

    /** Applies {@code text} if it is a valid successor of the current map, else counts and logs the refusal. */
    synchronized void offer(String text) {
        MysqlShardMap next;
        try {
            next = current.successor(MysqlShardMap.parse(text, current.addresses().orElse(configured)));
        } catch (IllegalArgumentException e) {
            rejected.incrementAndGet();
            lastRejection = new Rejection(e.getMessage(), text);
            LOG.warn("refusing the mysql shard map in {}: {}; keeping {}", path, e.getMessage(), current.format());
            return;
        }
        if (next.equals(current)) return;
        current = next;
        LOG.info("mysql shard map from {} is now {}", path, next);
        for (Consumer<MysqlShardMap> l : listeners) {
            try {
                l.accept(next);
            } catch (RuntimeException e) {
                // One broken listener must not keep the others (or the watch) from the new map.
                LOG.error("a mysql shard map listener failed", e);
            }
        }
    }

    /** The map in force. */
    public MysqlShardMap current() {
        return current;
    }

    @Override
    public MysqlShardMap get() {
        return current;
    }

    /** Called, on ZooKeeper's event thread, after each accepted change. */
    public void onChange(Consumer<MysqlShardMap> listener) {
        listeners.add(listener);
    }

    public void removeListener(Consumer<MysqlShardMap> listener) {
        listeners.remove(listener);
    }

    /** Edits refused since this process started watching. */
    public long rejectedUpdates() {
        return rejected.get();
    }

    public Optional<Rejection> lastRejection() {
        return Optional.ofNullable(lastRejection);
    }

    public String path() {
        return path;
    }

    @Override
    public void close() {
        cache.close();
    }
}
