package dev.pinfeed.loadharness;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the box's CPU went over a phase, in cores: this JVM (harness clients + in-process
 * ingest-api + both Kafka producers), the local stack (the processes named by
 * {@code .pinfeed/run/*.pid}: Kafka, MariaDB, Redis, registry, HBase, the dev ingest-api) and
 * everything else (other builds and tests on the box). Linux /proc only; NaN elsewhere.
 */
final class CpuMeter {

    record Snapshot(long wallNanos, long processCpuNanos, long ingestThreadsCpuNanos, long boxBusy, long boxTotal, long stackTicks) {}

    /**
     * Cores per phase: this JVM, of which ingest-api's own threads (the JDK server's HTTP-Dispatcher,
     * ingest-api-http-io/handler threads, its Kafka producer's network thread; not GC/JIT), the
     * stack, everything else; busy share of the whole box.
     */
    record Split(double jvm, double ingestThreads, double stack, double other, double boxBusy) {
        static final Split NONE = new Split(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final int CPUS = Runtime.getRuntime().availableProcessors();
    private static final List<Long> STACK_PIDS = stackPids();

    static Snapshot now() {
        long[] box = boxTicks();
        return new Snapshot(System.nanoTime(), OS.getProcessCpuTime(), ingestThreadsCpu(), box[0], box[1], stackTicks());
    }

    static Split between(Snapshot from, Snapshot to) {
        long wall = to.wallNanos() - from.wallNanos();
        double jvm = wall <= 0 || from.processCpuNanos() < 0 ? Double.NaN : (double) (to.processCpuNanos() - from.processCpuNanos()) / wall;
        long total = to.boxTotal() - from.boxTotal();
        double ingest = wall <= 0 ? Double.NaN : (double) (to.ingestThreadsCpuNanos() - from.ingestThreadsCpuNanos()) / wall;
        if (total <= 0) return new Split(jvm, ingest, Double.NaN, Double.NaN, Double.NaN);
        double busy = (double) (to.boxBusy() - from.boxBusy()) / total;
        double stack = STACK_PIDS.isEmpty() ? Double.NaN : (double) (to.stackTicks() - from.stackTicks()) / total * CPUS;
        double other = Math.max(0, busy * CPUS - jvm - (Double.isNaN(stack) ? 0 : stack));
        return new Split(jvm, ingest, stack, other, busy);
    }

    /** CPU time of the live threads that belong to the in-process ingest-api (by thread name). */
    private static long ingestThreadsCpu() {
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (java.lang.management.ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (t == null) continue;
            String name = t.getThreadName();
            if (name.startsWith("ingest-api-") || name.equals("HTTP-Dispatcher") || name.endsWith("| pinfeed-ingest")) {
                long cpu = threads.getThreadCpuTime(t.getThreadId());
                if (cpu > 0) sum += cpu;
            }
        }
        return sum;
    }

    /** {busy, total} jiffies of the aggregate "cpu" line; idle and iowait count as not busy. */
    private static long[] boxTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0;
            // user nice system idle iowait irq softirq steal (guest time is already inside user)
            for (int i = 1; i <= Math.min(8, f.length - 1); i++) total += Long.parseLong(f[i]);
            long idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0);
            return new long[] {total - idle, total};
        } catch (IOException | RuntimeException e) {
            return new long[] {0, 0};
        }
    }

    /** utime + stime of the stack's processes, in the same clock ticks as /proc/stat. */
    private static long stackTicks() {
        long sum = 0;
        for (long pid : STACK_PIDS) {
            try {
                String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                sum += Long.parseLong(f[11]) + Long.parseLong(f[12]); // fields 14 and 15 of proc(5)
            } catch (IOException | RuntimeException e) {
                // a stopped stack process just stops counting
            }
        }
        return sum;
    }

    private static List<Long> stackPids() {
        Path run = StackConfig.runDirectory();
        List<Long> pids = new ArrayList<>();
        if (!Files.isDirectory(run)) return pids;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(run, "*.pid")) {
            for (Path f : files) {
                try {
                    pids.add(Long.parseLong(Files.readString(f).trim().split("\\s+")[0]));
                } catch (IOException | RuntimeException ignored) {
                    // not a pid file of a running process
                }
            }
        } catch (IOException ignored) {
            // no stack split then
        }
        return pids;
    }

    /**
     * Before a timed phase: waits until the stack's processes together used at most {@code maxCores}
     * over a second (checked second after second, at most a minute), unless {@code maxCores <= 0}; says
     * how it went (null when it did not wait). A phase started right after another pays that one's tail
     * otherwise: the HBase standby replicating its writes took 0.5-1 core for seconds after each
     * 100 k-row phase here, whichever phase came next.
     */
    static String settle(double maxCores) throws InterruptedException {
        if (maxCores <= 0) return null;
        long t0 = System.nanoTime();
        long deadline = t0 + java.time.Duration.ofMinutes(1).toNanos();
        double cores;
        do {
            Snapshot from = now();
            Thread.sleep(1_000);
            cores = between(from, now()).stack(); // NaN without /proc or a known stack: no wait
        } while (cores > maxCores && System.nanoTime() < deadline);
        return String.format(java.util.Locale.ROOT, "the stack used %.2f cores after %.1f s of waiting", cores, (System.nanoTime() - t0) / 1e9);
    }

    /** A harness's {@code --settle-cores-pct} (default 20: 0.20 cores; 0: no wait), as cores for {@link #settle}. */
    static double settleCores(String[] args) {
        int pct = Args.intArg(args, "--settle-cores-pct", 20);
        if (pct < 0) throw new IllegalArgumentException("--settle-cores-pct must be at least 0: " + pct);
        return pct / 100.0;
    }

    /** /proc/loadavg as it reads (how busy the box was around a run), "?" elsewhere. */
    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "?";
        }
    }

    /** How many stack processes are counted (0: the "stack" column is unknown). */
    static int stackProcesses() {
        return STACK_PIDS.size();
    }
}
