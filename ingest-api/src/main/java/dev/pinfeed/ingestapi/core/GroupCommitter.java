package dev.pinfeed.ingestapi.core;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Group commit across concurrent callers: writes submitted for one lane (e.g. a MySQL shard host)
 * while that lane's previous commit is running are gathered and written together by the next commit,
 * one call of {@link Commit#commit} (one transaction) for all of them. Each lane has at most
 * {@code maxInFlight} commits running (1 or 2: with 2, a caller that arrives while one commit runs
 * starts the next at once instead of waiting for it), so N concurrent requests cost a commit or two
 * per commit time instead of N.
 *
 * <p>Every caller's future completes only when the commit that holds its items has returned: normally
 * when they are durable; exceptionally, with the exception the commit threw, for every caller of that
 * commit (the commit is one transaction, so none of its items was written: nothing half-registered).
 * A failed group is not retried; the callers decide (ingest undoes and answers 503). The next group
 * of the lane is committed on its own. Commits run on the injected {@link Executor} (one task per
 * lane while it has work), so tests run them deterministically.
 *
 * @param <K> the lane (writes of different lanes never share a commit)
 * @param <E> one item to write
 */
public final class GroupCommitter<K, E> {

    /** Writes {@code items} of {@code lane} atomically (all or none), or throws. */
    @FunctionalInterface
    public interface Commit<K, E> {
        void commit(K lane, List<E> items);
    }

    private record Waiter<E>(List<E> items, CompletableFuture<Void> done) {}

    private static final class Lane<E> {
        final ArrayDeque<Waiter<E>> pending = new ArrayDeque<>();
        int committing;
    }

    private final Executor executor;
    private final Commit<K, E> commit;
    private final int maxItemsPerCommit;
    private final int maxInFlight;
    private final Map<K, Lane<E>> lanes = new HashMap<>();

    /**
     * {@code maxItemsPerCommit} bounds one commit (a statement's size); a single caller's items are never
     * split, so one commit may hold more when one caller submits more.
     */
    public GroupCommitter(Executor executor, int maxItemsPerCommit, Commit<K, E> commit) {
        this(executor, maxItemsPerCommit, 1, commit);
    }

    /** {@code maxInFlight}: commits of one lane that may run at once (each holds what was pending when it started). */
    public GroupCommitter(Executor executor, int maxItemsPerCommit, int maxInFlight, Commit<K, E> commit) {
        if (maxItemsPerCommit < 1) throw new IllegalArgumentException("maxItemsPerCommit must be >= 1, is " + maxItemsPerCommit);
        if (maxInFlight < 1) throw new IllegalArgumentException("maxInFlight must be >= 1, is " + maxInFlight);
        this.maxInFlight = maxInFlight;
        this.executor = executor;
        this.commit = commit;
        this.maxItemsPerCommit = maxItemsPerCommit;
    }

    /** Queues {@code items} for {@code lane}'s next commit; the future completes when that commit returned. */
    public CompletableFuture<Void> submit(K lane, List<E> items) {
        Waiter<E> waiter = new Waiter<>(List.copyOf(items), new CompletableFuture<>());
        if (items.isEmpty()) {
            waiter.done().complete(null);
            return waiter.done();
        }
        boolean start;
        synchronized (lanes) {
            Lane<E> l = lanes.computeIfAbsent(lane, k -> new Lane<>());
            l.pending.add(waiter);
            start = l.committing < maxInFlight;
            if (start) l.committing++;
        }
        if (start) {
            try {
                executor.execute(() -> drain(lane));
            } catch (RejectedExecutionException e) {
                failPending(lane, e);
            }
        }
        return waiter.done();
    }

    /** Items waiting for a commit, over every lane (for tests and metrics). */
    public int pendingItems() {
        synchronized (lanes) {
            return lanes.values().stream().flatMap(l -> l.pending.stream()).mapToInt(w -> w.items().size()).sum();
        }
    }

    /** Commits the lane's pending groups one after another until none is left. */
    private void drain(K lane) {
        while (true) {
            List<Waiter<E>> group = new ArrayList<>();
            synchronized (lanes) {
                Lane<E> l = lanes.get(lane);
                if (l.pending.isEmpty()) {
                    if (--l.committing == 0) lanes.remove(lane);
                    return;
                }
                int size = 0;
                while (!l.pending.isEmpty() && (group.isEmpty() || size + l.pending.peek().items().size() <= maxItemsPerCommit)) {
                    Waiter<E> w = l.pending.poll();
                    size += w.items().size();
                    group.add(w);
                }
            }
            List<E> items = new ArrayList<>();
            for (Waiter<E> w : group) items.addAll(w.items());
            Throwable failure = null;
            try {
                commit.commit(lane, items);
            } catch (Throwable t) { // every waiter learns it; the lane goes on with its next group
                failure = t;
            }
            for (Waiter<E> w : group) {
                if (failure == null) w.done().complete(null); else w.done().completeExceptionally(failure);
            }
        }
    }

    /** The commit task could not start: a running commit of the lane takes the pending callers, else they fail. */
    private void failPending(K lane, RuntimeException e) {
        List<Waiter<E>> failed = List.of();
        synchronized (lanes) {
            Lane<E> l = lanes.get(lane);
            if (--l.committing == 0) {
                lanes.remove(lane);
                failed = new ArrayList<>(l.pending);
            }
        }
        for (Waiter<E> w : failed) w.done().completeExceptionally(e);
    }
}
