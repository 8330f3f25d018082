package dev.pinfeed.mysqlshards;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.metrics.MetricsTrackerFactory;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.StoreUnavailableException;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLTransientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.slf4j.LoggerFactory;

/**
 * Connection pools to the masters of the MySQL shard hosts, one per master address, opened on first
 * use. Writers always go to a master: a replica's lag could hide a row just written.
 *
 * <p>Every call consults the shard map's current version (a {@link MysqlShardConfig} for the live
 * map, or a fixed map), so a shard move or a failover takes effect without a restart: the first call
 * after a change opens a pool to the new master, and a pool whose address the map no longer names
 * is retired: it lends nothing more, and closes once its borrowed connections are back, or after
 * {@link #RETIRE_GRACE} at the latest.
 */
public final class ShardDataSources implements AutoCloseable {

    /** How long a retired pool's borrowers get to finish before their connections are cut. */
    public static final Duration RETIRE_GRACE = Duration.ofSeconds(30);
    private static final long SWEEP_MS = 200;
    /** How long {@link #hostOf} waits for a fenced shard before it reports the shard's host unavailable. */
    public static final Duration FENCE_WAIT = Duration.ofSeconds(30);
    private static final long FENCE_POLL_MS = 5;
    /** A shard's table was renamed away by a move's cutover: the caller looked the host up just before it. */
    private static final int ER_NO_SUCH_TABLE = 1146;
    /** {@code --read-only} refused a write: a master demoted during a failover. */
    private static final int ER_OPTION_PREVENTS_STATEMENT = 1290;
    private static final int ER_READ_ONLY_MODE = 1836;
    private static final org.slf4j.Logger LOG = LoggerFactory.getLogger(ShardDataSources.class);

    private final Supplier<MysqlShardMap> shardMap;
    private final Function<HostPort, String> jdbcUrl;
    private final String user;
    private final String password;
    private final String poolName;
    private final int maxPoolSize;
    private final Map<String, String> driverProperties;
    /** Pools of the addresses {@link #seen} names; changed only under the write lock. */
    private final ConcurrentHashMap<HostPort, HikariDataSource> pools = new ConcurrentHashMap<>();
    /** Readers borrow against one version of the map; a new version is applied under the write lock. */
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private volatile MysqlShardMap seen;
    private final List<Retiring> retiring = new ArrayList<>();
    private ScheduledExecutorService sweeper;
    private volatile boolean closed;
    private volatile MetricsTrackerFactory metrics;
    /** Per pool: refuses borrows at once while its master is known to be unreachable. */
    private final Map<HikariDataSource, UnreachableHostGate> gates = new ConcurrentHashMap<>();

    private static final class Retiring {
        final HikariDataSource pool;
        int sweepsLeft = (int) (RETIRE_GRACE.toMillis() / SWEEP_MS);

        Retiring(HikariDataSource pool) {
            this.pool = pool;
        }
    }

    /**
     * @param shardMap         the map to route by, asked on every call (a {@link MysqlShardConfig}, or {@code () -> map})
     * @param jdbcUrl          a host's JDBC URL ({@link PinfeedConfig#mysqlJdbcUrl}: TLS as configured)
     * @param driverProperties Connector/J settings such as {@code allowMultiQueries}
     */
    public ShardDataSources(Supplier<MysqlShardMap> shardMap, Function<HostPort, String> jdbcUrl, String user, String password,
                            String poolName, int maxPoolSize, Map<String, String> driverProperties) {
        this.shardMap = shardMap;
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.password = password;
        this.poolName = poolName;
        this.maxPoolSize = maxPoolSize;
        this.driverProperties = Map.copyOf(driverProperties);
        current(); // a map that is unusable now fails here, not on the first write
    }

    /**
     * Reports every pool opened from now on to {@code meters} (HikariCP's own meters: {@code
     * hikaricp_connections_active}, {@code _pending}, {@code _timeout_total}, {@code _acquire_seconds}, per pool).
     * Call before the first connection: a pool's tracker is fixed once it is open.
     */
    public ShardDataSources bindMetrics(io.micrometer.core.instrument.MeterRegistry meters) {
        this.metrics = new com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory(meters);
        return this;
    }

    /** Pools on the configured map ({@code mysql.shards}), fixed for the life of the process. */
    public static ShardDataSources from(PinfeedConfig config, String poolName, int maxPoolSize) {
        return from(config, poolName, maxPoolSize, Map.of());
    }

    public static ShardDataSources from(PinfeedConfig config, String poolName, int maxPoolSize, Map<String, String> driverProperties) {
        MysqlShardMap map = MysqlShardMap.from(config);
        return from(config, () -> map, poolName, maxPoolSize, driverProperties);
    }

    /** Pools on {@code shardMap} (the live {@link MysqlShardConfig}), with the configured user and password. */
    public static ShardDataSources from(PinfeedConfig config, Supplier<MysqlShardMap> shardMap, String poolName, int maxPoolSize,
                                        Map<String, String> driverProperties) {
        return new ShardDataSources(shardMap, config::mysqlJdbcUrl, config.mysqlUser(), config.mysqlPassword(), poolName, maxPoolSize, driverProperties);
    }

    /** The map in force now. */
    public MysqlShardMap shardMap() {
        return current();
    }

    /**
     * The host holding {@code shard}. While a move's cutover fences the shard, waits (polling the
     * live map) until the fence is lifted, so a caller pauses rather than writes to the host the
     * shard is leaving; after {@link #FENCE_WAIT} it gives up with {@link StoreUnavailableException}.
     */
    public String hostOf(int shard) {
        MysqlShardMap map = current();
        if (!map.fenced(shard)) return map.hostOf(shard);
        long deadline = System.nanoTime() + FENCE_WAIT.toNanos();
        while (map.fenced(shard)) {
            if (System.nanoTime() - deadline > 0) {
                throw new StoreUnavailableException(map.hostOf(shard), "shard " + shard + " is fenced by a shard move for more than "
                        + FENCE_WAIT.toSeconds() + " s (see ./pinfeed shards status)");
            }
            try {
                Thread.sleep(FENCE_POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreUnavailableException(map.hostOf(shard), "interrupted while shard " + shard + " is fenced by a shard move", e);
            }
            map = current();
        }
        return map.hostOf(shard);
    }

    public HostPort master(String host) {
        return current().master(host);
    }

    public Iterable<String> hosts() {
        return current().hosts();
    }

    /** Connections to the master of the host holding {@code shard}, looked up at each {@code getConnection}. */
    public DataSource forShard(int shard) {
        return new Routed(map -> map.hostOf(shard));
    }

    /** Connections to {@code host}'s master, looked up at each {@code getConnection}. */
    public DataSource forHost(String host) {
        return new Routed(map -> host);
    }

    /**
     * A connection to {@code host}'s current master, or {@link StoreUnavailableException} naming the
     * host when none can be had (refused, pool timeout, host just moved out of the map): safe to retry.
     */
    public Connection connection(String host) {
        try {
            return borrow(map -> host);
        } catch (SQLException e) {
            throw new StoreUnavailableException(host, "no connection to its master: " + e.getMessage() + rootCause(e), e);
        } catch (UnknownHost e) {
            throw new StoreUnavailableException(host, e.getMessage(), e);
        }
    }

    /**
     * What an adapter throws for {@code e}, raised while doing {@code what} on {@code host}: a
     * {@link StoreUnavailableException} naming the host when the server could not be reached or
     * refused work for now ({@link #isUnavailable}), else an {@link IllegalStateException} (a bug:
     * bad SQL, a missing table).
     */
    public static RuntimeException failure(String host, String what, SQLException e) {
        String message = what + " failed: " + e.getMessage() + rootCause(e);
        return isUnavailable(e) ? new StoreUnavailableException(host, message, e) : new IllegalStateException(message + " (on " + host + ")", e);
    }

    /**
     * Connection lost or refused, timeouts, deadlocks, a read-only (demoted) master, a table a shard
     * move's cutover renamed away (the caller's next lookup finds the shard's new host): worth a retry.
     */
    public static boolean isUnavailable(SQLException e) {
        if (e instanceof SQLTransientException || e instanceof SQLRecoverableException || e instanceof SQLNonTransientConnectionException) {
            return true;
        }
        String state = e.getSQLState();
        return state != null && state.startsWith("08")
                || e.getErrorCode() == ER_OPTION_PREVENTS_STATEMENT || e.getErrorCode() == ER_READ_ONLY_MODE
                || e.getErrorCode() == ER_NO_SUCH_TABLE;
    }

    /** Pool timeouts hide why no connection could be made (refused, auth); this names it. */
    public static String rootCause(Throwable e) {
        Throwable root = root(e);
        return root == e ? "" : " (" + root.getMessage() + ")";
    }

    private static Throwable root(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        return root;
    }

    /** Master addresses with an open pool, retired ones excluded. */
    public Set<HostPort> poolAddresses() {
        return Set.copyOf(pools.keySet());
    }

    /** Retired pools still waiting for borrowed connections to come back. */
    public int retiringPools() {
        synchronized (retiring) {
            return retiring.size();
        }
    }

    /** The host named no longer exists in the map (thrown inside the lock, mapped by callers). */
    private static final class UnknownHost extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnknownHost(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private Connection borrow(Function<MysqlShardMap, String> hostOf) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            HikariDataSource pool = pool(hostOf);
            UnreachableHostGate gate = gates.computeIfAbsent(pool, p -> new UnreachableHostGate(System::nanoTime));
            String refused = gate.enter();
            if (refused != null) throw new SQLTransientConnectionException(pool.getPoolName() + " " + refused, "08001");
            try {
                Connection c = pool.getConnection();
                gate.reached();
                return c;
            } catch (SQLException e) {
                // HikariCP names why no connection could be made as the cause; without one every connection was just busy.
                if (e.getCause() != null && !pool.isClosed()) gate.unreachable(firstLine(root(e).getMessage()));
                else gate.done();
                // Retired and closed between the lookup and the borrow: the map moved on, look again.
                if (!pool.isClosed() || closed || attempt == 3) throw e;
            }
        }
    }

    private static String firstLine(String s) {
        if (s == null) return "";
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    private HikariDataSource pool(Function<MysqlShardMap, String> hostOf) {
        current();
        lock.readLock().lock();
        try {
            if (closed) throw new IllegalStateException(poolName + " connections are closed");
            MysqlShardMap map = seen;
            String host = hostOf.apply(map);
            HostPort master;
            try {
                master = map.master(host);
            } catch (IllegalArgumentException e) {
                throw new UnknownHost(e.getMessage(), e);
            }
            return pools.computeIfAbsent(master, address -> open(host, address));
        } finally {
            lock.readLock().unlock();
        }
    }

    private MysqlShardMap current() {
        MysqlShardMap map = shardMap.get();
        if (map != seen) apply();
        return map;
    }

    /** Adopts the map's newest version: pools of addresses it no longer names are retired. */
    private void apply() {
        lock.writeLock().lock();
        try {
            // Read inside the lock, so two callers holding different versions can never step back.
            MysqlShardMap map = shardMap.get();
            if (map == seen) return;
            Set<HostPort> named = new HashSet<>();
            for (String host : map.hosts()) named.add(map.master(host));
            for (Iterator<Map.Entry<HostPort, HikariDataSource>> it = pools.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<HostPort, HikariDataSource> e = it.next();
                if (!named.contains(e.getKey())) {
                    it.remove();
                    gates.remove(e.getValue());
                    retire(e.getValue());
                }
            }
            seen = map;
        } finally {
            lock.writeLock().unlock();
        }
    }

    private HikariDataSource open(String host, HostPort master) {
        HikariConfig c = new HikariConfig();
        c.setPoolName(poolName + "-" + host + "@" + master);
        c.setJdbcUrl(jdbcUrl.apply(master));
        c.setUsername(user);
        c.setPassword(password);
        c.setAutoCommit(true);
        c.setMaximumPoolSize(maxPoolSize);
        c.setMinimumIdle(0);
        c.setConnectionTimeout(5_000);
        c.setInitializationFailTimeout(-1); // report an unreachable host per call, not at construction
        driverProperties.forEach(c::addDataSourceProperty);
        if (metrics != null) c.setMetricsTrackerFactory(metrics);
        return new HikariDataSource(c);
    }

    private void retire(HikariDataSource pool) {
        synchronized (retiring) {
            if (closed) {
                pool.close();
                return;
            }
            LOG.info("{}: the shard map no longer names this master; closing the pool once its {} borrowed connections are back",
                    pool.getPoolName(), active(pool));
            retiring.add(new Retiring(pool));
            if (sweeper == null) {
                sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, poolName + "-retired-pools");
                    t.setDaemon(true);
                    return t;
                });
                sweeper.scheduleWithFixedDelay(this::sweep, SWEEP_MS, SWEEP_MS, TimeUnit.MILLISECONDS);
            }
        }
    }

    private void sweep() {
        List<HikariDataSource> done = new ArrayList<>();
        synchronized (retiring) {
            for (Iterator<Retiring> it = retiring.iterator(); it.hasNext(); ) {
                Retiring r = it.next();
                int active = active(r.pool);
                if (active == 0 || --r.sweepsLeft <= 0) {
                    if (active > 0) LOG.warn("{}: {} connections still borrowed after {}; cutting them", r.pool.getPoolName(), active, RETIRE_GRACE);
                    done.add(r.pool);
                    it.remove();
                }
            }
        }
        done.forEach(HikariDataSource::close); // outside the lock: closing may wait for aborted connections
    }

    private static int active(HikariDataSource pool) {
        HikariPoolMXBean bean = pool.getHikariPoolMXBean();
        return bean == null ? 0 : bean.getActiveConnections();
    }

    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            closed = true;
            pools.values().forEach(HikariDataSource::close);
            pools.clear();
        } finally {
            lock.writeLock().unlock();
        }
        synchronized (retiring) {
            retiring.forEach(r -> r.pool.close());
            retiring.clear();
            if (sweeper != null) sweeper.shutdownNow();
        }
    }

    /** A DataSource that picks its pool at each {@code getConnection}, so callers may keep it across map changes. */
    private final class Routed implements DataSource {
        private final Function<MysqlShardMap, String> hostOf;

        Routed(Function<MysqlShardMap, String> hostOf) {
            this.hostOf = hostOf;
        }

        @Override
        public Connection getConnection() throws SQLException {
            try {
                return borrow(hostOf);
            } catch (UnknownHost e) {
                // The host left the map between the caller's lookup and this borrow: transient, like a refusal.
                throw new SQLTransientConnectionException(e.getMessage(), "08001", e);
            }
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            throw new SQLFeatureNotSupportedException("shard pools connect as the configured user");
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) throws SQLException {
            throw new SQLFeatureNotSupportedException("shard pools log through SLF4J");
        }

        @Override
        public void setLoginTimeout(int seconds) throws SQLException {
            throw new SQLFeatureNotSupportedException("shard pools have a fixed connection timeout");
        }

        @Override
        public int getLoginTimeout() {
            return 5;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException("shard pools log through SLF4J");
        }

        @Override
        public <T> T unwrap(Class<T> type) throws SQLException {
            if (type.isInstance(this)) return type.cast(this);
            throw new SQLException("not a wrapper of " + type.getName());
        }

        @Override
        public boolean isWrapperFor(Class<?> type) {
            return type.isInstance(this);
        }
    }
}
