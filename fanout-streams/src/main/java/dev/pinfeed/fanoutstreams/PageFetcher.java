package dev.pinfeed.fanoutstreams;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Reads jobs' next pages ({@link FanoutStepper#read}) on a pool of fetch threads, ahead of the turn
 * that needs them, so the stream thread never waits on Redis or HBase: it only takes pages that are
 * ready, and meanwhile polls, processes and commits. A page is keyed by the job (pin, event) and the
 * cursor it was read at, so a page can only continue the walk it was read for. One fetcher per task,
 * used by that task's stream thread only.
 */
public final class PageFetcher implements AutoCloseable {

    private record Key(long pinId, long eventId, String cursor) {
        static Key of(FanoutJob job) {
            return new Key(job.pinId(), job.eventId(), job.cursor());
        }
    }

    private final FanoutStepper stepper;
    private final Executor executor;
    private final Map<Key, CompletableFuture<FanoutStepper.PageRead>> pages = new HashMap<>();

    /** {@code executor}: the fetch threads; a direct executor ({@code Runnable::run}) reads synchronously (tests). */
    public PageFetcher(FanoutStepper stepper, Executor executor) {
        this.stepper = stepper;
        this.executor = executor;
    }

    /** Starts reading the job's next page unless that is already under way. */
    public void request(FanoutJob job) {
        pages.computeIfAbsent(Key.of(job), k -> CompletableFuture.supplyAsync(() -> stepper.read(job), executor));
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
        if (!page.isDone()) return null;
        pages.remove(key);
        try {
            return page.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error err) throw err;
            throw e;
        }
    }

    /** Drops what was read or is being read for this pin (its job ended or was replaced). */
    public void forget(long pinId) {
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
    }
}
