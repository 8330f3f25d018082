package dev.pinfeed.redismasters;

import dev.pinfeed.config.HostPort;
import java.time.Duration;
import java.util.AbstractMap;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.LongSupplier;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Connection;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisException;

/**
 * One pooled client per Redis instance, on the instance's current master, by instance name. A live
 * map: after a failover changes {@link RedisMasterConfig}, {@link #get} returns a client on the
 * promoted server (the old client is closed; a call in flight on it fails as an outage and is
 * retried). Every pinfeed Redis adapter holds one of these instead of fixed clients.
 */
public final class RedisMasterClients extends AbstractMap<String, RedisClient> implements AutoCloseable {

    /** How the clients of one adapter connect: its name in CLIENT LIST, timeouts and pool size. */
    public record Settings(String clientName, Duration connectTimeout, Duration socketTimeout, int poolSize) {}

    /** The key a replication barrier writes: the only key these clients own. */
    static final String BARRIER_KEY = "pinfeed:replication-barrier";

    private static final Logger LOG = LoggerFactory.getLogger(RedisMasterClients.class);

    private final Settings settings;
    private final RedisClientSettings connection;
    private final ConcurrentSkipListMap<String, RedisClient> clients = new ConcurrentSkipListMap<>();
    private final Map<String, HostPort> addresses = new ConcurrentHashMap<>();
    private final Runnable unfollow;
    /** When each instance's last replication barrier failed (nanoTime), while it has not passed since. */
    private final Map<String, Long> lastFailedBarrier = new ConcurrentHashMap<>();
    static final long RETRY_FAILED_BARRIER_MS = 1_000;
    private final LongSupplier nanoTime;
    private boolean closed;

    private RedisMasterClients(RedisMasterConfig masters, Settings settings, LongSupplier nanoTime) {
        this.settings = settings;
        this.connection = masters.clientSettings();
        this.nanoTime = nanoTime;
        this.unfollow = masters.onChange(this::follow);
        follow(masters.get()); // after registering: a change meanwhile is not missed
    }

    /** Clients on {@code masters}' current addresses that follow its changes, authenticated and encrypted as {@code masters} says. */
    public static RedisMasterClients open(RedisMasterConfig masters, Settings settings) {
        return new RedisMasterClients(masters, settings, System::nanoTime);
    }

    private RedisClient client(HostPort address) {
        GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
        pool.setMaxTotal(settings.poolSize());
        pool.setMaxIdle(settings.poolSize());
        pool.setJmxEnabled(false);
        return RedisClient.builder().hostAndPort(address.host(), address.port()).poolConfig(pool)
                .clientConfig(connection.clientConfig(settings.clientName(), settings.connectTimeout(), settings.socketTimeout(), true))
                .build();
    }

    private synchronized void follow(RedisMasterMap map) {
        if (closed) return;
        for (String instance : map.instances()) {
            HostPort address = map.masterOf(instance);
            if (address.equals(addresses.get(instance))) continue;
            RedisClient previous = clients.put(instance, client(address));
            addresses.put(instance, address);
            if (previous != null) {
                LOG.info("{}: redis {} master is now {}", settings.clientName(), instance, address);
                previous.close();
            }
        }
    }

    /** The address {@code instance}'s client connects to now. */
    public HostPort addressOf(String instance) {
        HostPort a = addresses.get(instance);
        if (a == null) throw new IllegalArgumentException("no redis instance " + instance);
        return a;
    }

    /**
     * A barrier: true when a replica of {@code instance} has acknowledged every write its master took
     * before this call (from any connection: the replication offset is global), false when none did
     * within {@code timeout}. A write on this connection followed by WAIT on the same connection. After
     * a failed barrier (the replica is gone, e.g. after a failover) the instance answers false at once
     * for {@value #RETRY_FAILED_BARRIER_MS} ms before it waits again: a lost replica must not slow every
     * caller by the whole timeout.
     */
    public boolean awaitReplica(String instance, Duration timeout) {
        RedisClient c = get(instance);
        if (c == null) throw new IllegalArgumentException("no redis instance " + instance);
        Long failedAt = lastFailedBarrier.get(instance);
        if (failedAt != null && nanoTime.getAsLong() - failedAt < RETRY_FAILED_BARRIER_MS * 1_000_000) return false;
        boolean replicated;
        try (AbstractPipeline p = c.pipelined()) {
            p.set(BARRIER_KEY, Long.toString(System.currentTimeMillis()));
            Response<Long> replicas = p.waitReplicas(BARRIER_KEY, 1, Math.max(1, timeout.toMillis())); // WAIT 0 would block for ever
            p.sync();
            replicated = replicas.get() >= 1;
        }
        if (replicated) {
            lastFailedBarrier.remove(instance);
        } else {
            lastFailedBarrier.put(instance, nanoTime.getAsLong());
        }
        return replicated;
    }

    /**
     * {@link #awaitReplica} for each of {@code instances}: those whose replica did not confirm in time,
     * or that did not answer at all.
     */
    public Set<String> unreplicated(Collection<String> instances, Duration timeout) {
        Set<String> behind = new java.util.TreeSet<>();
        for (String instance : instances) {
            try {
                if (!awaitReplica(instance, timeout)) behind.add(instance);
            } catch (JedisException down) {
                behind.add(instance);
            }
        }
        return behind;
    }

    @Override
    public RedisClient get(Object instance) {
        return clients.get(instance);
    }

    @Override
    public Set<Entry<String, RedisClient>> entrySet() {
        return Collections.unmodifiableSet(clients.entrySet());
    }

    @Override
    public synchronized void close() {
        closed = true;
        unfollow.run();
        clients.values().forEach(RedisClient::close);
    }
}
