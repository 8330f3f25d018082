package dev.pinfeed.followergraph.sharded;

import dev.pinfeed.config.StoreUnavailableException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One phase of a batch of graph writes: per instance one call (a pipeline on Redis) with that
 * instance's items in command order, the instances in parallel (the first on the caller's thread, the
 * others on daemon threads started on demand). A phase returns only when every instance's call has
 * ended, so nothing of it is still in flight afterwards.
 */
final class InstancePipelines implements AutoCloseable {

    private static final AtomicInteger THREADS = new AtomicInteger();
    private ExecutorService pool;

    /** The items of a phase grouped by instance, each with the index of the command it belongs to. */
    static final class Batches<T> {
        private final Map<String, Group<T>> byInstance = new LinkedHashMap<>();

        void add(String instance, int command, T item) {
            Group<T> g = byInstance.computeIfAbsent(instance, i -> new Group<>(new ArrayList<>(), new ArrayList<>()));
            g.commands().add(command);
            g.items().add(item);
        }
    }

    private record Group<T>(List<Integer> commands, List<T> items) {}

    /** One instance's call: a reply per item, in order; {@link StoreUnavailableException} when the instance does not answer. */
    @FunctionalInterface
    interface Call<T, R> {
        List<R> run(String instance, List<T> items);
    }

    /** What a command makes of its item's reply (called on the caller's thread). */
    @FunctionalInterface
    interface Each<R> {
        void accept(int command, R reply);
    }

    /**
     * Runs {@code call} per instance of {@code batches}; hands each reply to {@code each}. An instance that
     * does not answer marks its commands in {@code failed} (unless already failed); another exception (a
     * bug) is thrown once every instance's call has ended.
     */
    <T, R> void run(Batches<T> batches, Call<T, R> call, RuntimeException[] failed, Each<R> each) {
        List<Map.Entry<String, Group<T>>> groups = new ArrayList<>(batches.byInstance.entrySet());
        if (groups.isEmpty()) return;
        List<Future<List<R>>> others = new ArrayList<>();
        for (Map.Entry<String, Group<T>> g : groups.subList(1, groups.size())) {
            others.add(pool().submit(() -> call.run(g.getKey(), g.getValue().items())));
        }
        RuntimeException bug = null;
        for (int k = 0; k < groups.size(); k++) {
            String instance = groups.get(k).getKey();
            Group<T> g = groups.get(k).getValue();
            try {
                List<R> replies = k == 0 ? call.run(instance, g.items()) : await(instance, others.get(k - 1));
                if (replies.size() != g.items().size()) {
                    throw new IllegalStateException(instance + " answered " + replies.size() + " of " + g.items().size() + " calls");
                }
                for (int j = 0; j < replies.size(); j++) each.accept(g.commands().get(j), replies.get(j));
            } catch (StoreUnavailableException e) {
                for (int c : g.commands()) if (failed[c] == null) failed[c] = e;
            } catch (RuntimeException e) {
                if (bug == null) bug = e;
            }
        }
        if (bug != null) throw bug;
    }

    private static <R> List<R> await(String instance, Future<List<R>> f) {
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error err) throw err;
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException(instance, "interrupted while waiting for its pipeline", e);
        }
    }

    private synchronized ExecutorService pool() {
        if (pool == null) {
            pool = Executors.newCachedThreadPool(r -> {
                Thread t = new Thread(r, "graph-pipelines-" + THREADS.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        }
        return pool;
    }

    @Override
    public synchronized void close() {
        if (pool != null) pool.shutdown();
    }
}
