package dev.pinfeed.console.pipeline;

import dev.pinfeed.processorruntime.ProcessMain;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs the probes of a sample in parallel, each under its own deadline, so one slow store never delays the others.
 * A probe still running from an earlier sample (it hung past its deadline) is awaited again rather than started
 * twice, so a hung store costs one thread, not one per sample; and its answer, when it comes late, is the next
 * sample's, so a store slower than the deadline still shows what it answered.
 */
final class Probes implements AutoCloseable {

    /** A probe's answer, or why there is none (one line). */
    record Outcome<T>(T value, String error) {
        boolean ok() {
            return error == null;
        }
    }

    /** A started probe, awaited until {@code deadlineNanos}. */
    final class Pending<T> {
        private final Slot slot;
        private final Future<?> future;
        private final long deadlineNanos;

        private Pending(Slot slot, Future<?> future, long deadlineNanos) {
            this.slot = slot;
            this.future = future;
            this.deadlineNanos = deadlineNanos;
        }

        @SuppressWarnings("unchecked")
        Outcome<T> await() {
            try {
                T value = (T) future.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
                slot.consumed(future);
                return new Outcome<>(value, null);
            } catch (TimeoutException e) {
                return new Outcome<>(null, "no answer within " + timeout.toMillis() + " ms");
            } catch (ExecutionException e) {
                slot.consumed(future);
                return new Outcome<>(null, oneLine(e.getCause()));
            } catch (CancellationException e) {
                return new Outcome<>(null, "cancelled");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Outcome<>(null, "interrupted");
            }
        }
    }

    private static final class Slot {
        private Future<?> future;
        private boolean consumed;

        synchronized Future<?> next(ExecutorService pool, Callable<?> probe) {
            if (future == null || future.isDone() && consumed) {
                future = pool.submit(probe);
                consumed = false;
            }
            return future;
        }

        synchronized void consumed(Future<?> answered) {
            if (answered == future) consumed = true;
        }
    }

    private static final int MAX_ERROR = 240;

    private final Duration timeout;
    private final Map<String, Slot> slots = new ConcurrentHashMap<>();
    private final ExecutorService pool;

    Probes(Duration timeout) {
        this.timeout = timeout;
        AtomicInteger threads = new AtomicInteger();
        this.pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "pipeline-probe-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts {@code probe} under {@code key} (or joins the one still running under it); its deadline is {@code timeout} from now. */
    <T> Pending<T> start(String key, Callable<T> probe) {
        Slot slot = slots.computeIfAbsent(key, k -> new Slot());
        return new Pending<>(slot, slot.next(pool, probe), System.nanoTime() + timeout.toNanos());
    }

    static String oneLine(Throwable e) {
        String text = e == null ? "failed" : ProcessMain.oneLine(e);
        return text.length() <= MAX_ERROR ? text : text.substring(0, MAX_ERROR - 3) + "...";
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
