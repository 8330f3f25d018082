package dev.pinfeed.idallocator.mysql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.ShardMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * Connection pools to the masters of the MySQL shard hosts, one per host, opened on first use.
 * Writers always go to a master: a replica's lag could hide a row just written.
 */
public final class ShardDataSources implements AutoCloseable {

    private final ShardMap shardMap;
    private final Map<String, HostPort> masters;
    private final String user;
    private final String password;
    private final String poolName;
    private final int maxPoolSize;
    private final Map<String, String> driverProperties;
    private final ConcurrentHashMap<String, HikariDataSource> pools = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public ShardDataSources(ShardMap shardMap, Map<String, HostPort> masters, String user, String password,
                            String poolName, int maxPoolSize) {
        this(shardMap, masters, user, password, poolName, maxPoolSize, Map.of());
    }

    /** {@code driverProperties} are Connector/J settings such as {@code allowMultiQueries}. */
    public ShardDataSources(ShardMap shardMap, Map<String, HostPort> masters, String user, String password,
                            String poolName, int maxPoolSize, Map<String, String> driverProperties) {
        this.driverProperties = Map.copyOf(driverProperties);
        this.shardMap = shardMap;
        this.masters = Map.copyOf(masters);
        this.user = user;
        this.password = password;
        this.poolName = poolName;
        this.maxPoolSize = maxPoolSize;
        for (ShardMap.Range r : shardMap.ranges()) {
            if (!this.masters.containsKey(r.host())) {
                throw new IllegalStateException("shard map places shards " + r.first() + "-" + r.last()
                        + " on host '" + r.host() + "' which has no configured master");
            }
        }
    }

    public static ShardDataSources from(PinfeedConfig config, String poolName, int maxPoolSize) {
        return from(config, poolName, maxPoolSize, Map.of());
    }

    public static ShardDataSources from(PinfeedConfig config, String poolName, int maxPoolSize, Map<String, String> driverProperties) {
        Map<String, HostPort> masters = new LinkedHashMap<>();
        for (PinfeedConfig.ReplicatedHost host : config.mysqlHosts()) masters.put(host.name(), host.master());
        return new ShardDataSources(ShardMap.from(config), masters, config.mysqlUser(), config.mysqlPassword(), poolName,
                maxPoolSize, driverProperties);
    }

    public ShardMap shardMap() {
        return shardMap;
    }

    public String hostOf(int shard) {
        return shardMap.hostOf(shard);
    }

    public HostPort master(String host) {
        return masters.get(host);
    }

    public Iterable<String> hosts() {
        return masters.keySet();
    }

    public DataSource forShard(int shard) {
        return forHost(shardMap.hostOf(shard));
    }

    public DataSource forHost(String host) {
        if (closed) throw new IllegalStateException(poolName + " connections are closed");
        return pools.computeIfAbsent(host, h -> {
            HostPort master = masters.get(h);
            if (master == null) throw new IllegalArgumentException("no configured MySQL host '" + h + "'");
            HikariConfig c = new HikariConfig();
            c.setPoolName(poolName + "-" + h);
            c.setJdbcUrl(PinfeedConfig.mysqlJdbcUrl(master));
            c.setUsername(user);
            c.setPassword(password);
            c.setAutoCommit(true);
            c.setMaximumPoolSize(maxPoolSize);
            c.setMinimumIdle(0);
            c.setConnectionTimeout(5_000);
            c.setInitializationFailTimeout(-1); // report an unreachable host per call, not at construction
            driverProperties.forEach(c::addDataSourceProperty);
            return new HikariDataSource(c);
        });
    }

    /** Pool timeouts hide why no connection could be made (refused, auth); this names it. */
    public static String rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        return root == e ? "" : " (" + root.getMessage() + ")";
    }

    @Override
    public void close() {
        closed = true;
        pools.values().forEach(HikariDataSource::close);
        pools.clear();
    }
}
