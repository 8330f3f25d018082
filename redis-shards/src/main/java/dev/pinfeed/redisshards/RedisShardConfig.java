package dev.pinfeed.redisshards;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.config.zookeeper.WatchedZnode;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live shard → instance map, kept in ZooKeeper (the seed keeps shard configuration there) and
 * watched ({@link WatchedZnode}), so an operator moves shards without restarting anything. The znode is
 * seeded when absent; an operator's later edit wins. An edit that does not parse or names an instance
 * this process has no connection for is refused with a warning: the previous map stays.
 *
 * <p>It also guards this process's writes during a virtual-shard move ({@link #write}): a write to a
 * fenced shard waits until the fence is lifted, and the process acknowledges a new fence in
 * ZooKeeper ({@link ShardFenceFollowers}) only once its writes to those shards that started before
 * it have finished. So when every follower has acknowledged, nothing writes the range on the old
 * instance any more and the mover can copy its last changes and flip the map.
 */
public final class RedisShardConfig implements Supplier<RedisShardMap>, AutoCloseable {

    /** Under the application namespace ({@code pinfeed}): {@code /pinfeed/config/redis-shards}. */
    public static final String ZNODE = "/config/redis-shards";
    /** How long a write waits for a fence to be lifted before it is answered as unavailable (and retried). */
    static final Duration FENCE_WAIT = Duration.ofSeconds(60);

    private static final Logger LOG = LoggerFactory.getLogger(RedisShardConfig.class);

    private final WatchedZnode<RedisShardMap> znode;
    /** Writes in flight per virtual shard: counted before the fence is checked, so an acknowledgement never misses one. */
    private final AtomicIntegerArray writing = new AtomicIntegerArray(VirtualShards.COUNT);
    private final Object changed = new Object();
    private final ExecutorService acknowledging = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "redis-shard-fences");
        t.setDaemon(true);
        return t;
    });
    private final ShardFenceFollowers.Member member;

    private RedisShardConfig(WatchedZnode<RedisShardMap> znode, ShardFenceFollowers.Member member) {
        this.znode = znode;
        this.member = member;
        znode.onChange(map -> {
            synchronized (changed) {
                changed.notifyAll();
            }
            acknowledging.execute(this::acknowledgeFences);
        });
    }

    /**
     * Seeds {@code path} with {@code seed} if absent, reads it, and watches it. Fails if the stored map
     * is unusable now: better not to start than to write to the wrong instances. {@code zk} is the
     * caller's (started, in the application namespace); it must outlive this watch.
     */
    public static RedisShardConfig watch(CuratorFramework zk, String path, RedisShardMap seed, Set<String> knownInstances)
            throws Exception {
        Set<String> known = Set.copyOf(knownInstances);
        WatchedZnode<RedisShardMap> znode = WatchedZnode.watch(zk, path, seed.format(), text -> check(RedisShardMap.parse(text), known),
                "redis shard map");
        try {
            RedisShardConfig config = new RedisShardConfig(znode, ShardFenceFollowers.register(zk, path, znode.get().fences(), known));
            config.acknowledging.execute(config::acknowledgeFences); // a change between the read and the registration
            return config;
        } catch (Exception | Error e) {
            znode.close();
            throw e;
        }
    }

    /**
     * Runs {@code call} with the instance holding {@code shard}, as a write: while the shard is fenced
     * it waits (up to {@link #FENCE_WAIT}, then {@link StoreUnavailableException}), and the instance is
     * looked up after the wait, so a write that waited goes to the shard's new instance.
     */
    public <T> T write(int shard, Function<String, T> call) {
        return unfenced(new int[] {shard}, map -> {
            String instance = map.instanceOf(shard);
            return RedisCalls.on(instance, () -> call.apply(instance));
        });
    }

    /**
     * Runs {@code call} on {@code instance} as a write of {@code shards} (all looked up on that
     * instance by the caller): it waits while any of them is fenced; if one has moved to another
     * instance meanwhile, it is answered as unavailable and the caller retries with the new map.
     */
    public <T> T write(String instance, int[] shards, Supplier<T> call) {
        return unfenced(shards, map -> {
            for (int s : shards) {
                if (!map.instanceOf(s).equals(instance)) {
                    throw new StoreUnavailableException(instance, "virtual shard " + s + " has moved to " + map.instanceOf(s) + "; retry");
                }
            }
            return RedisCalls.on(instance, call);
        });
    }

    /**
     * Runs {@code write} with a map in which none of {@code shards} is fenced, those shards counted in flight
     * meanwhile (counted before the fence is read, so {@link #acknowledgeFences} never misses a write); while
     * one is fenced, waits for the map to change.
     */
    private <T> T unfenced(int[] shards, Function<RedisShardMap, T> write) {
        long deadline = System.nanoTime() + FENCE_WAIT.toNanos();
        while (true) {
            for (int s : shards) writing.incrementAndGet(s);
            int fenced = -1;
            RedisShardMap map;
            try {
                map = get();
                for (int s : shards) if (map.isFenced(s)) fenced = s;
                if (fenced < 0) return write.apply(map);
            } finally {
                for (int s : shards) writing.decrementAndGet(s);
            }
            awaitChange(deadline, map.instanceOf(fenced), fenced);
        }
    }

    private void awaitChange(long deadline, String instance, int shard) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new StoreUnavailableException(instance, "virtual shard " + shard + " stayed fenced for a move for " + FENCE_WAIT.toSeconds() + " s");
        }
        synchronized (changed) {
            if (!get().isFenced(shard)) return;
            try {
                changed.wait(Math.max(1, Math.min(50, left / 1_000_000)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreUnavailableException(instance, "interrupted while virtual shard " + shard + " was fenced", e);
            }
        }
    }

    /** Acknowledges the current map's fences once this process's writes to them that began earlier are done. */
    private void acknowledgeFences() {
        RedisShardMap map = get();
        try {
            for (RedisShardMap.Span f : map.fences()) {
                for (int s = f.first(); s <= f.last(); s++) {
                    while (writing.get(s) > 0) Thread.sleep(1);
                }
            }
            member.acknowledge(map.fences());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warn("could not acknowledge the redis shard fences {} in ZooKeeper: {}", map.fences(), e.toString());
        }
    }

    private static RedisShardMap check(RedisShardMap map, Set<String> known) {
        for (String instance : map.instances()) {
            if (!known.contains(instance)) throw new IllegalArgumentException("shard map names unknown redis instance " + instance + " (known: " + known + ")");
        }
        return map;
    }

    @Override
    public RedisShardMap get() {
        return znode.get();
    }

    /** Called after each accepted change. */
    public void onChange(Consumer<RedisShardMap> listener) {
        znode.onChange(listener);
    }

    @Override
    public void close() {
        znode.close();
        acknowledging.shutdownNow();
        try {
            member.close();
        } catch (Exception e) {
            LOG.debug("closing the follower znode: {}", e.toString());
        }
    }
}
