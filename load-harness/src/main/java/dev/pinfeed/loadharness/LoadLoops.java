package dev.pinfeed.loadharness;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.LongSupplier;
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
        Tally tally = new Tally(warmupNanos, measureNanos);
        SplittableRandom seeds = new SplittableRandom(seed);
        for (int t = 0; t < threads; t++) {
            Histogram h = tally.histogram();
            SplittableRandom random = seeds.split();
            tally.workers.add(thread("load-closed-" + t, () -> {
                sleepUntil(tally.start);
                while (true) {
                    long sent = System.nanoTime();
                    if (sent >= tally.measureTo) break;
                    IngestHttp.Result r = call.apply(random);
                    long done = System.nanoTime();
                    tally.failed(r);
                    if (done >= tally.measureFrom && done < tally.measureTo) tally.record(r, done, h, done - sent);
                }
            }));
        }
        return tally.run(measureNanos, 0);
    }

    /**
     * Requests due every {@code 1 / requestsPerSecond} s from {@code threads} threads; each takes the
     * next due time, waits for it, sends, and records answer time minus due time.
     */
    static Outcome openLoop(int threads, double requestsPerSecond, long warmupNanos, long measureNanos, long seed,
                            Function<SplittableRandom, IngestHttp.Result> call) throws InterruptedException {
        double intervalNanos = 1e9 / requestsPerSecond;
        Tally tally = new Tally(warmupNanos, measureNanos);
        AtomicLong nextSlot = new AtomicLong();
        AtomicLong lastDone = new AtomicLong(tally.measureFrom);
        LongAdder late = new LongAdder();
        SplittableRandom seeds = new SplittableRandom(seed);
        for (int t = 0; t < threads; t++) {
            Histogram h = tally.histogram();
            SplittableRandom random = seeds.split();
            tally.workers.add(thread("load-open-" + t, () -> {
                while (true) {
                    long due = tally.start + (long) (nextSlot.getAndIncrement() * intervalNanos);
                    if (due >= tally.measureTo) break;
                    sleepUntil(due);
                    long sent = System.nanoTime();
                    IngestHttp.Result r = call.apply(random);
                    long done = System.nanoTime();
                    tally.failed(r);
                    if (due >= tally.measureFrom) {
                        tally.record(r, due, h, done - due);
                        if (sent - due > 1_000_000L) late.increment();
                        lastDone.accumulateAndGet(done, Math::max);
                    }
                }
            }));
        }
        // Achieved rate: accepted events of the requests due in the window, over the time until the last answered.
        Outcome o = tally.run(measureNanos, 0);
        long window = Math.max(measureNanos, lastDone.get() - tally.measureFrom);
        return new Outcome(o.requests(), o.acceptedEvents(), o.failures(), window, o.latencyMicros(), o.minPerSecond(),
                o.maxPerSecond(), late.sum(), o.cpuFrom(), o.cpuTo());
    }

    /** What {@link #warmUntilJitQuiet} took: stretches run, their total length, and the last one's length and compile time. */
    record JitWarmup(int stretches, long totalNanos, long lastNanos, long lastCompileMillis, boolean quiet) {
        String describe(String stretch) {
            return String.format(Locale.ROOT, "%s after %d untimed %s (%.0f s; %d ms compiling in the last, %.1f s long)",
                    quiet ? "the JIT went quiet" : "the JIT was still compiling", stretches, stretch, totalNanos / 1e9, lastCompileMillis,
                    lastNanos / 1e9);
        }
    }

    private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();

    /**
     * Runs {@code stretch} (the phase's own load, untimed) until one passes with this JVM's JIT compiling
     * for at most {@code quietShare} of its length, at most {@code maxStretches} times. A fixed warm-up
     * is not enough when the harness JVM runs the system too: a paced read path compiled for ten seconds
     * and more after a closed loop had warmed the saturated one, and the fan-out and worker still
     * compiled for half a core during the third 100 k pin.
     */
    static JitWarmup warmUntilJitQuiet(int maxStretches, double quietShare, Stretch stretch) throws Exception {
        return warmUntilJitQuiet(LoadLoops::jitMillis, maxStretches, quietShare, stretch);
    }

    /** This JVM's JIT: total compile time so far, ms. */
    static long jitMillis() {
        return JIT.getTotalCompilationTime();
    }

    /** {@link #warmUntilJitQuiet(int, double, Stretch)} with the JIT's total compile time, ms, from {@code compileMillis}. */
    static JitWarmup warmUntilJitQuiet(LongSupplier compileMillis, int maxStretches, double quietShare, Stretch stretch) throws Exception {
        long total = 0;
        long lastNanos = 0;
        long last = -1;
        for (int n = 1; n <= maxStretches; n++) {
            long before = compileMillis.getAsLong();
            lastNanos = stretch.run();
            total += lastNanos;
            last = compileMillis.getAsLong() - before;
            if (last <= quietShare * lastNanos / 1e6) return new JitWarmup(n, total, lastNanos, last, true);
        }
        return new JitWarmup(maxStretches, total, lastNanos, last, false);
    }

    /** Untimed load; returns how long it ran, ns. */
    @FunctionalInterface
    interface Stretch {
        long run() throws Exception;
    }

    /** What both loops count, and their common start, measured window and join. */
    private static final class Tally {
        final long start = System.nanoTime() + 20_000_000L;
        final long measureFrom;
        final long measureTo;
        final int seconds;
        final LongAdder[] perSecond;
        final LongAdder requests = new LongAdder();
        final LongAdder accepted = new LongAdder();
        final LongAdder failures = new LongAdder();
        final List<Histogram> histograms = new ArrayList<>();
        final List<Thread> workers = new ArrayList<>();

        Tally(long warmupNanos, long measureNanos) {
            measureFrom = start + warmupNanos;
            measureTo = measureFrom + measureNanos;
            seconds = (int) Math.max(1, measureNanos / 1_000_000_000L);
            perSecond = adders(seconds);
        }

        Histogram histogram() {
            Histogram h = new Histogram(3);
            histograms.add(h);
            return h;
        }

        /** Failures count during warm-up too. */
        void failed(IngestHttp.Result r) {
            if (!r.ok()) failures.add(r.status() == 202 ? r.rejected() : Math.max(1, r.rejected()));
        }

        /** A measured request, booked in the second of {@code at}. */
        void record(IngestHttp.Result r, long at, Histogram h, long latencyNanos) {
            requests.increment();
            accepted.add(r.accepted());
            perSecond[(int) Math.min(seconds - 1, (at - measureFrom) / 1_000_000_000L)].add(r.accepted());
            h.recordValue(Math.max(1, latencyNanos / 1000));
        }

        Outcome run(long measuredNanos, long lateStarts) throws InterruptedException {
            workers.forEach(Thread::start);
            sleepUntil(measureFrom);
            CpuMeter.Snapshot cpuFrom = CpuMeter.now();
            sleepUntil(measureTo);
            CpuMeter.Snapshot cpuTo = CpuMeter.now();
            for (Thread w : workers) w.join();
            return new Outcome(requests.sum(), accepted.sum(), failures.sum(), measuredNanos, merge(histograms),
                    min(perSecond), max(perSecond), lateStarts, cpuFrom, cpuTo);
        }
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
