package dev.pinfeed.load;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * The two ways of driving ingest-api. Closed loop: each thread sends its next request when the
 * previous one answered (finds the peak). Open loop: requests are due at fixed times, and latency
 * is measured from the due time, so a slow answer that delays the next send is charged to the
 * requests it delayed (no coordinated omission).
 */
final class LoadLoops {

    /** What a loop measured. Counts cover the measured window only, except {@code failures}, which covers warm-up too. */
    record Outcome(long requests, long acceptedEvents, long failures, long measuredNanos, Histogram latencyMicros,
                   long minPerSecond, long maxPerSecond, long lateStarts, CpuMeter.Snapshot cpuFrom, CpuMeter.Snapshot cpuTo) {}

    private LoadLoops() {}

    static Outcome closedLoop(int threads, long warmupNanos, long measureNanos, long seed,
                              Function<SplittableRandom, IngestHttp.Result> call) throws InterruptedException {
        long start = System.nanoTime() + 20_000_000L;
        long measureFrom = start + warmupNanos;
        long measureTo = measureFrom + measureNanos;
        int seconds = (int) Math.max(1, measureNanos / 1_000_000_000L);
        LongAdder[] perSecond = adders(seconds);
        LongAdder requests = new LongAdder();
        LongAdder accepted = new LongAdder();
        LongAdder failures = new LongAdder();
        List<Histogram> histograms = new ArrayList<>();
        List<Thread> workers = new ArrayList<>();
        SplittableRandom seeds = new SplittableRandom(seed);
        for (int t = 0; t < threads; t++) {
            Histogram h = new Histogram(3);
            histograms.add(h);
            SplittableRandom random = seeds.split();
            workers.add(thread("load-closed-" + t, () -> {
                sleepUntil(start);
                while (true) {
                    long sent = System.nanoTime();
                    if (sent >= measureTo) break;
                    IngestHttp.Result r = call.apply(random);
                    long done = System.nanoTime();
                    if (!r.ok()) failures.add(r.status() == 202 ? r.rejected() : Math.max(1, r.rejected()));
                    if (done >= measureFrom && done < measureTo) {
                        requests.increment();
                        accepted.add(r.accepted());
                        perSecond[(int) Math.min(seconds - 1, (done - measureFrom) / 1_000_000_000L)].add(r.accepted());
                        h.recordValue(Math.max(1, (done - sent) / 1000));
                    }
                }
            }));
        }
        workers.forEach(Thread::start);
        sleepUntil(measureFrom);
        CpuMeter.Snapshot cpuFrom = CpuMeter.now();
        sleepUntil(measureTo);
        CpuMeter.Snapshot cpuTo = CpuMeter.now();
        for (Thread w : workers) w.join();
        return new Outcome(requests.sum(), accepted.sum(), failures.sum(), measureNanos, merge(histograms),
                min(perSecond), max(perSecond), 0, cpuFrom, cpuTo);
    }

    /**
     * Requests due every {@code 1 / requestsPerSecond} s from {@code threads} threads; each takes the
     * next due time, waits for it, sends, and records answer time minus due time.
     */
    static Outcome openLoop(int threads, double requestsPerSecond, long warmupNanos, long measureNanos, long seed,
                            Function<SplittableRandom, IngestHttp.Result> call) throws InterruptedException {
        double intervalNanos = 1e9 / requestsPerSecond;
        long start = System.nanoTime() + 20_000_000L;
        long measureFrom = start + warmupNanos;
        long measureTo = measureFrom + measureNanos;
        int seconds = (int) Math.max(1, measureNanos / 1_000_000_000L);
        LongAdder[] perSecond = adders(seconds);
        AtomicLong nextSlot = new AtomicLong();
        AtomicLong lastDone = new AtomicLong(measureFrom);
        LongAdder requests = new LongAdder();
        LongAdder accepted = new LongAdder();
        LongAdder failures = new LongAdder();
        LongAdder late = new LongAdder();
        List<Histogram> histograms = new ArrayList<>();
        List<Thread> workers = new ArrayList<>();
        SplittableRandom seeds = new SplittableRandom(seed);
        for (int t = 0; t < threads; t++) {
            Histogram h = new Histogram(3);
            histograms.add(h);
            SplittableRandom random = seeds.split();
            workers.add(thread("load-open-" + t, () -> {
                while (true) {
                    long due = start + (long) (nextSlot.getAndIncrement() * intervalNanos);
                    if (due >= measureTo) break;
                    sleepUntil(due);
                    long sent = System.nanoTime();
                    IngestHttp.Result r = call.apply(random);
                    long done = System.nanoTime();
                    if (!r.ok()) failures.add(r.status() == 202 ? r.rejected() : Math.max(1, r.rejected()));
                    if (due >= measureFrom) {
                        requests.increment();
                        accepted.add(r.accepted());
                        perSecond[(int) Math.min(seconds - 1, (due - measureFrom) / 1_000_000_000L)].add(r.accepted());
                        h.recordValue(Math.max(1, (done - due) / 1000));
                        if (sent - due > 1_000_000L) late.increment();
                        lastDone.accumulateAndGet(done, Math::max);
                    }
                }
            }));
        }
        workers.forEach(Thread::start);
        sleepUntil(measureFrom);
        CpuMeter.Snapshot cpuFrom = CpuMeter.now();
        sleepUntil(measureTo);
        CpuMeter.Snapshot cpuTo = CpuMeter.now();
        for (Thread w : workers) w.join();
        // Achieved rate: accepted events of the requests due in the window, over the time until the last answered.
        long window = Math.max(measureNanos, lastDone.get() - measureFrom);
        return new Outcome(requests.sum(), accepted.sum(), failures.sum(), window, merge(histograms),
                min(perSecond), max(perSecond), late.sum(), cpuFrom, cpuTo);
    }

    private static Thread thread(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        return t;
    }

    static void sleepUntil(long nanoTime) {
        for (long left; (left = nanoTime - System.nanoTime()) > 0; ) LockSupport.parkNanos(left);
    }

    private static LongAdder[] adders(int n) {
        LongAdder[] a = new LongAdder[n];
        for (int i = 0; i < n; i++) a[i] = new LongAdder();
        return a;
    }

    private static long min(LongAdder[] a) {
        long m = Long.MAX_VALUE;
        for (LongAdder x : a) m = Math.min(m, x.sum());
        return m;
    }

    private static long max(LongAdder[] a) {
        long m = 0;
        for (LongAdder x : a) m = Math.max(m, x.sum());
        return m;
    }

    private static Histogram merge(List<Histogram> parts) {
        Histogram all = new Histogram(3);
        for (Histogram h : parts) all.add(h);
        return all;
    }
}
