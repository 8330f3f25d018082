package dev.pinfeed.operations.shards;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.redismasters.RedisClientSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;

/**
 * The keys of a range of virtual shards changed on one Redis instance since the watch began: the
 * catch-up of a virtual-shard move. Redis's keyspace notifications ({@code notify-keyspace-events}
 * with {@code K} and {@code A}, switched on for the move and restored after it) name every key a
 * command changed, expired or evicted; the mover copies those keys again. Notifications are only
 * lost with the connection, and then the watch says so ({@link #drain}) and the move stops.
 */
final class KeyspaceWatch implements AutoCloseable {

    private static final String CHANNEL = "__keyspace@0__:";
    static final String NOTIFY = "notify-keyspace-events";

    private final Jedis connection;
    private final RangeKeys keys;
    private final Set<String> dirty = ConcurrentHashMap.newKeySet();
    private final AtomicReference<Throwable> lost = new AtomicReference<>();
    private final AtomicLong pings = new AtomicLong();
    private final ConcurrentHashMap<String, CountDownLatch> pongs = new ConcurrentHashMap<>();
    private final CountDownLatch subscribed = new CountDownLatch(1);
    private final Pubsub pubsub = new Pubsub();
    private final Thread reader;

    private KeyspaceWatch(RedisClientSettings clientSettings, HostPort master, RangeKeys keys) {
        // No read timeout: it waits for notifications.
        this.connection = clientSettings.plainConnection(master, java.time.Duration.ofSeconds(5), java.time.Duration.ZERO);
        this.keys = keys;
        this.reader = new Thread(() -> {
            try {
                connection.psubscribe(pubsub, CHANNEL + keys.glob("*"));
            } catch (Throwable e) {
                lost.compareAndSet(null, e);
            } finally {
                subscribed.countDown();
            }
        }, "keyspace-watch-" + master);
        reader.setDaemon(true);
    }

    /** Starts watching {@code master} for changes of {@code keys}; returns once subscribed. */
    static KeyspaceWatch start(RedisClientSettings clientSettings, HostPort master, RangeKeys keys) throws InterruptedException {
        KeyspaceWatch watch = new KeyspaceWatch(clientSettings, master, keys);
        watch.reader.start();
        if (!watch.subscribed.await(10, TimeUnit.SECONDS) || watch.lost.get() != null) {
            watch.close();
            throw new IllegalStateException("could not subscribe to the keyspace notifications of " + master
                    + (watch.lost.get() == null ? "" : ": " + watch.lost.get().getMessage()));
        }
        return watch;
    }

    /** {@code flags} with what the watch needs ({@code K}: keyspace channel; {@code A}: every command's event). */
    static String withNeededFlags(String flags) {
        StringBuilder out = new StringBuilder(flags == null ? "" : flags);
        if (out.indexOf("K") < 0) out.append('K');
        if (out.indexOf("A") < 0) out.append('A');
        return out.toString();
    }

    /**
     * Waits until every notification the server sent before this call has arrived (a PING on the
     * subscribed connection is answered after them).
     */
    void sync() throws InterruptedException {
        String marker = "sync-" + pings.incrementAndGet();
        CountDownLatch pong = new CountDownLatch(1);
        pongs.put(marker, pong);
        pubsub.ping(marker);
        if (!pong.await(10, TimeUnit.SECONDS)) throw new IllegalStateException("the keyspace notifications did not answer a ping in 10 s");
        checkNotLost();
    }

    /** The keys changed since the last drain (each once); {@link IllegalStateException} if notifications were lost. */
    List<String> drain() {
        checkNotLost();
        List<String> keys = new ArrayList<>(dirty);
        keys.forEach(dirty::remove);
        return keys;
    }

    private void checkNotLost() {
        Throwable e = lost.get();
        if (e != null || !reader.isAlive()) {
            throw new IllegalStateException("lost the keyspace notifications of the giving instance ("
                    + (e == null ? "connection closed" : e.getMessage()) + "): changes could be missed, so the move stops");
        }
    }

    @Override
    public void close() {
        try {
            if (pubsub.isSubscribed()) pubsub.punsubscribe();
        } catch (RuntimeException ignored) {
            // closing anyway
        }
        connection.close();
    }

    private final class Pubsub extends JedisPubSub {
        @Override
        public void onPSubscribe(String pattern, int count) {
            subscribed.countDown();
        }

        @Override
        public void onPMessage(String pattern, String channel, String event) {
            String key = channel.substring(CHANNEL.length());
            if (keys.contains(key)) dirty.add(key);
        }

        @Override
        public void onPong(String marker) {
            CountDownLatch pong = pongs.remove(marker);
            if (pong != null) pong.countDown();
        }
    }
}
