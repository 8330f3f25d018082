package dev.pinfeed.config.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A live setting kept as text in one znode (the seed keeps shard configuration in ZooKeeper), watched
 * with a {@link CuratorCache} so an edit applies without a restart. Seeded when absent; a stored value
 * wins. An edit that {@code parse} refuses ({@link IllegalArgumentException}) is logged and the previous
 * value stays; a deleted znode keeps it too. Listeners run after each accepted change.
 */
public final class WatchedZnode<T> implements Supplier<T>, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(WatchedZnode.class);

    private final AtomicReference<T> current;
    private final String path;
    private final String what;
    private final Function<String, T> parse;
    private final CuratorCache cache;
    private final CopyOnWriteArrayList<Consumer<T>> listeners = new CopyOnWriteArrayList<>();

    private WatchedZnode(CuratorFramework zk, String path, String what, Function<String, T> parse, T initial) {
        this.current = new AtomicReference<>(initial);
        this.path = path;
        this.what = what;
        this.parse = parse;
        this.cache = CuratorCache.build(zk, path, CuratorCache.Options.SINGLE_NODE_CACHE);
        cache.listenable().addListener((type, oldData, data) -> {
            if (type == CuratorCacheListener.Type.NODE_DELETED || data == null) {
                LOG.warn("{} was deleted; keeping {} {}", path, what, current.get());
            } else {
                update(new String(data.getData(), StandardCharsets.UTF_8));
            }
        });
        cache.start();
    }

    /**
     * Seeds {@code path} with {@code seed} if absent, reads and parses it, and watches it. Fails (with
     * what {@code parse} threw) if the stored value is unusable now: better not to start than to route by
     * a wrong map. {@code zk} is the caller's (started) and must outlive the watch.
     */
    public static <T> WatchedZnode<T> watch(CuratorFramework zk, String path, String seed, Function<String, T> parse, String what)
            throws Exception {
        return new WatchedZnode<>(zk, path, what, parse, parse.apply(read(zk, path, seed)));
    }

    /** The stored text of {@code path}, seeded with {@code seed} when absent. */
    public static String read(CuratorFramework zk, String path, String seed) throws Exception {
        if (!zk.blockUntilConnected(20, TimeUnit.SECONDS)) throw new IllegalStateException("ZooKeeper does not answer");
        try {
            zk.create().creatingParentsIfNeeded().forPath(path, seed.getBytes(StandardCharsets.UTF_8));
        } catch (KeeperException.NodeExistsException kept) {
            // A stored value (an operator's, or a failover's) wins over the seed.
        }
        return new String(zk.getData().forPath(path), StandardCharsets.UTF_8);
    }

    /**
     * Replaces the text of {@code path} with {@code edit} of it, compare-and-set on the znode version: an
     * edit made meanwhile is read again and {@code edit} applied to it, never overwritten. Returns the
     * text written; what {@code edit} throws passes on and nothing is written.
     */
    public static String update(CuratorFramework zk, String path, UnaryOperator<String> edit) throws Exception {
        while (true) {
            Stat stat = new Stat();
            String next = edit.apply(new String(zk.getData().storingStatIn(stat).forPath(path), StandardCharsets.UTF_8));
            try {
                zk.setData().withVersion(stat.getVersion()).forPath(path, next.getBytes(StandardCharsets.UTF_8));
                return next;
            } catch (KeeperException.BadVersionException raced) {
                // Someone edited it meanwhile: apply the edit to theirs.
            }
        }
    }

    private void update(String text) {
        T next;
        try {
            next = parse.apply(text);
        } catch (IllegalArgumentException e) {
            LOG.warn("refusing {} in {}: {}; keeping {}", what, path, e.getMessage(), current.get());
            return;
        }
        T previous = current.getAndSet(next);
        if (!next.equals(previous)) {
            LOG.info("{} is now {}", what, next);
            listeners.forEach(l -> l.accept(next));
        }
    }

    @Override
    public T get() {
        return current.get();
    }

    /** Called after each accepted change; the returned handle stops the calls. */
    public Runnable onChange(Consumer<T> listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    @Override
    public void close() {
        cache.close();
    }
}
