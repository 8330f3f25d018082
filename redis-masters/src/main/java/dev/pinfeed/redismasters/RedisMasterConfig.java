package dev.pinfeed.redismasters;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.PinfeedConfig.ReplicatedHost;
import dev.pinfeed.config.zookeeper.WatchedZnode;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;

/**
 * The live instance → master address map, kept in ZooKeeper next to the shard maps and watched
 * ({@link WatchedZnode}), so a failover ({@link RedisFailover}) moves every service to the promoted
 * replica without a restart. Seeded with the configured masters when absent; a stored map wins (a
 * process started after a failover must not write to the old master). An edit that does not parse or
 * does not fit the configured pairs is refused with a warning and the previous map stays.
 */
public final class RedisMasterConfig implements Supplier<RedisMasterMap>, AutoCloseable {

    /** Under the application namespace ({@code pinfeed}): {@code /pinfeed/config/redis-masters}. */
    public static final String ZNODE = "/config/redis-masters";
    public static final String ZNODE_KEY = "redis.masters.znode";

    /** The watched znode; null for {@link #fixed} (no ZooKeeper). */
    private final WatchedZnode<RedisMasterMap> znode;
    private final RedisMasterMap fixedMap;
    private final RedisClientSettings clientSettings;

    private RedisMasterConfig(WatchedZnode<RedisMasterMap> znode, RedisMasterMap fixedMap, RedisClientSettings clientSettings) {
        this.znode = znode;
        this.fixedMap = fixedMap;
        this.clientSettings = clientSettings;
    }

    /** The configured masters ({@code redis.instances}) and client settings, never changing: for tools and tests without ZooKeeper. */
    public static RedisMasterConfig fixed(PinfeedConfig config) {
        return fixed(config.redisInstances(), RedisClientSettings.from(config));
    }

    /** {@code configured} masters, never changing, reached with {@code clientSettings}. */
    public static RedisMasterConfig fixed(List<ReplicatedHost> configured, RedisClientSettings clientSettings) {
        return new RedisMasterConfig(null, RedisMasterMap.configured(configured), clientSettings);
    }

    /**
     * Seeds {@code path} with the configured masters if absent, reads it and watches it. Fails if the
     * stored map does not fit the configuration: better not to start than to write to the wrong server.
     * {@code zk} is the caller's (started, in the application namespace) and must outlive the watch.
     */
    public static RedisMasterConfig watch(CuratorFramework zk, String path, List<ReplicatedHost> configured,
                                          RedisClientSettings clientSettings) throws Exception {
        return new RedisMasterConfig(WatchedZnode.watch(zk, path, RedisMasterMap.configured(configured).format(),
                text -> RedisMasterMap.parse(text).checkedAgainst(configured), "redis master map"), null, clientSettings);
    }

    /** {@link #watch} at the configured znode ({@value #ZNODE_KEY}, default {@value #ZNODE}), with the configured client settings. */
    public static RedisMasterConfig watch(PinfeedConfig config, CuratorFramework zk) throws Exception {
        return watch(zk, znode(config), config.redisInstances(), RedisClientSettings.from(config));
    }

    public static String znode(PinfeedConfig config) {
        return config.get(ZNODE_KEY, ZNODE);
    }

    /** The stored map (seeded when absent), checked against the configuration. */
    public static RedisMasterMap read(CuratorFramework zk, String path, List<ReplicatedHost> configured) throws Exception {
        return RedisMasterMap.parse(WatchedZnode.read(zk, path, RedisMasterMap.configured(configured).format())).checkedAgainst(configured);
    }

    /**
     * Compare-and-set: moves {@code instance}'s master from {@code expected} to {@code promoted}, failing
     * if someone else changed that instance's entry since it was read. Returns the new map.
     */
    public static RedisMasterMap promote(CuratorFramework zk, String path, List<ReplicatedHost> configured, String instance,
                                         HostPort expected, HostPort promoted) throws Exception {
        read(zk, path, configured); // seeds it when absent
        return RedisMasterMap.parse(WatchedZnode.update(zk, path, text -> {
            RedisMasterMap stored = RedisMasterMap.parse(text);
            if (!stored.masterOf(instance).equals(expected)) {
                throw new IllegalStateException(path + " has " + instance + " at " + stored.masterOf(instance) + ", not " + expected
                        + ": another failover ran meanwhile; nothing changed");
            }
            return stored.withMaster(instance, promoted).checkedAgainst(configured).format();
        }));
    }

    /** How clients of these masters authenticate and encrypt. */
    public RedisClientSettings clientSettings() {
        return clientSettings;
    }

    @Override
    public RedisMasterMap get() {
        return znode == null ? fixedMap : znode.get();
    }

    /** Called after each accepted change; the returned handle stops the calls. */
    public Runnable onChange(Consumer<RedisMasterMap> listener) {
        return znode == null ? () -> {} : znode.onChange(listener);
    }

    @Override
    public void close() {
        if (znode != null) znode.close();
    }
}
