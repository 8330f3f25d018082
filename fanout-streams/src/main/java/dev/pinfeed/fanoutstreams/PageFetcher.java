package dev.pinfeed.fanoutstreams;

import dev.pinfeed.followergraph.Page;
import dev.pinfeed.followergraph.Receiver;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * Reads jobs' next pages ({@link FanoutStepper#receivers}, then {@link FanoutStepper#kept}) on a pool of fetch threads, ahead of the turn
 * that needs them, so the stream thread never waits on Redis: it only takes pages that are
 * ready, and meanwhile polls, processes and commits. A page is keyed by the job (pin, event) and the
 * cursor it was read at, so a page can only continue the walk it was read for.
 *
 * <p>A read has two halves: the graph page (fast; it yields the next page's cursor) and the last-read
 * check of an ADD's receivers (the slow half, one feed-store batch). As soon as a job's graph page is
 * there, the job's next page starts, up to {@code depth} pages read or in flight per job: a big
 * fan-out's slow halves run side by side on the fetch threads instead of one after another (measured:
 * one page at a time held a 100 k fan-out to ~5 k receivers/s). Pages nobody takes are dropped with
 * their job ({@link #forget}). The stream thread calls {@link #request}, {@link #poll} and
 * {@link #forget}; the fetch threads only start the next page of a job still being read.
 */
public final class PageFetcher implements AutoCloseable {

    private record Key(long pinId, long eventId, String cursor) {
        static Key of(FanoutJob job) {
            return of(job, job.cursor());
        }

        static Key of(FanoutJob job, String cursor) {
            return new Key(job.pinId(), job.eventId(), cursor);
        }

        boolean sameJob(Key other) {
            return pinId == other.pinId && eventId == other.eventId;
        }
    }

    private final FanoutStepper stepper;
    private final Executor executor;
    private final int depth;
    private final Map<Key, CompletableFuture<FanoutStepper.PageRead>> pages = new ConcurrentHashMap<>();
    /** The next cursor of each page whose graph half is read (the walk's chain, for {@link #refill}). */
    private final Map<Key, String> nexts = new ConcurrentHashMap<>();

    /** One page ahead per job. {@code executor}: the fetch threads; a direct executor ({@code Runnable::run}) reads synchronously (tests). */
    public PageFetcher(FanoutStepper stepper, Executor executor) {
        this(stepper, executor, 1);
    }

    /** Up to {@code depth} pages read or in flight per job. */
    public PageFetcher(FanoutStepper stepper, Executor executor, int depth) {
        if (depth < 1) throw new IllegalArgumentException("read-ahead depth must be at least 1: " + depth);
        this.stepper = stepper;
        this.executor = executor;
        this.depth = depth;
    }

    /** Starts reading the job's next page unless that is already under way. */
    public void request(FanoutJob job) {
        start(job, job.cursor());
    }

    private void start(FanoutJob job, String cursor) {
        Key key = Key.of(job, cursor);
        if (pages.containsKey(key)) return;
        CompletableFuture<Page<Receiver>> graphPage = new CompletableFuture<>();
        CompletableFuture<FanoutStepper.PageRead> read = graphPage.thenApplyAsync(p -> stepper.kept(job, cursor, p), executor);
        if (pages.putIfAbsent(key, read) != null) return;
        // Once the graph page names the next cursor, that page may start: while this job is still read (not forgotten).
        graphPage.thenAccept(p -> {
            if (p.nextCursor() == null || !pages.containsKey(key)) return;
            nexts.put(key, p.nextCursor());
            if (ahead(key) < depth) start(job, p.nextCursor());
        });
        executor.execute(() -> {
            try {
                graphPage.complete(stepper.receivers(job, cursor));
            } catch (Throwable t) {
                graphPage.completeExceptionally(t);
            }
        });
    }

    /** Follows the job's chain of pages from {@code cursor} and starts the first one missing, if the job has room. */
    private void refill(FanoutJob job, String cursor) {
        for (String c = cursor; c != null; ) {
            Key k = Key.of(job, c);
            if (!pages.containsKey(k)) {
                if (ahead(k) < depth) start(job, c);
                return;
            }
            c = nexts.get(k); // null while its graph half is on its way: its completion chains on
        }
    }

    /** Pages of {@code key}'s job read or in flight. */
    private long ahead(Key key) {
        return pages.keySet().stream().filter(key::sameJob).count();
    }

    /**
     * The job's next page if it has been read (requesting it otherwise): null while it is on its way.
     * A failed read is handed over once, as the exception the read threw ({@link
     * dev.pinfeed.config.StoreUnavailableException} for an outage), and asked again on the next call.
     */
    public FanoutStepper.PageRead poll(FanoutJob job) {
        request(job);
        Key key = Key.of(job);
        CompletableFuture<FanoutStepper.PageRead> page = pages.get(key);
        if (page == null || !page.isDone()) return null;
        pages.remove(key);
        nexts.remove(key);
        try {
            FanoutStepper.PageRead read = page.join();
            refill(job, read.nextCursor()); // a slot is free: the walk's next missing page may start
            return read;
        } catch (CompletionException e) {
            // A failed read: the pages read ahead past it are dropped with it (they would be read again anyway).
            forget(job.pinId());
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error err) throw err;
            throw e;
        }
    }

    /** Drops what was read or is being read for this pin (its job ended or was replaced). */
    public void forget(long pinId) {
        nexts.keySet().removeIf(k -> k.pinId() == pinId);
        pages.entrySet().removeIf(e -> {
            if (e.getKey().pinId() != pinId) return false;
            e.getValue().cancel(false);
            return true;
        });
    }

    /** Pages read or under way (for tests and metrics). */
    public int size() {
        return pages.size();
    }

    @Override
    public void close() {
        pages.values().forEach(f -> f.cancel(false));
        pages.clear();
        nexts.clear();
    }
}
