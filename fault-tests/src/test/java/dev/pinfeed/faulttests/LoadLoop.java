package dev.pinfeed.faulttests;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A few threads calling {@code call} back to back until {@link #close()}, each call recorded in
 * {@link #samples()}. A call returns its HTTP status (or throws: recorded as {@link Samples#FAILED}).
 */
final class LoadLoop implements AutoCloseable {

    /** One call of the load: thread index and iteration, so calls can pick their user; its status and a detail (the body of an error). */
    interface Call {
        Samples.Result run(int thread, long iteration) throws Exception;
    }

    private final Samples samples = new Samples();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicBoolean paused = new AtomicBoolean();
    private final List<Thread> threads = new ArrayList<>();

    LoadLoop(String name, int threadCount, long pauseMs, Call call) {
        for (int t = 0; t < threadCount; t++) {
            int index = t;
            Thread thread = new Thread(() -> {
                for (long i = 0; running.get(); i++) {
                    while (paused.get() && running.get()) Outage.sleep(20);
                    long start = System.nanoTime();
                    try {
                        Samples.Result r = call.run(index, i);
                        samples.add(start, r.status(), r.detail());
                    } catch (Exception e) {
                        samples.add(start, Samples.FAILED, e.toString());
                    }
                    if (pauseMs > 0) Outage.sleep(pauseMs);
                }
            }, name + "-" + t);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
    }

    /**
     * Holds every thread before its next call until {@link #resume()} (a call under way finishes). For a restart:
     * a closed loop at full speed starves the restarting server of the box's two cores.
     */
    void pause() {
        paused.set(true);
    }

    void resume() {
        paused.set(false);
    }

    Samples samples() {
        return samples;
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        for (Thread t : threads) t.join(60_000);
    }
}
