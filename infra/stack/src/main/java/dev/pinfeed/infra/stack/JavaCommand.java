package dev.pinfeed.infra.stack;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.pinfeed.config.PinfeedConfig;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** A child JVM command line: same JDK as ours, bounded heap, a module's built classpath. */
final class JavaCommand {

    /** HBase's own JDK 17 flags: without them Hadoop and HBase fall back to slow paths. */
    static final List<String> HBASE_OPENS = List.of(
            "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED", "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED");

    private final List<String> args = new ArrayList<>();

    static final String TRIM_OPTION = "TrimNativeHeapInterval";
    static final int NIO_CACHED_BUFFER_MAX = 256 * 1024;
    static final int TRIM_INTERVAL_MS = 5_000;

    /**
     * Flags that keep a long-running JVM's resident memory to what it uses (the dev stack runs 19 processes on one box):
     * the heap starts small and grows under load up to its maximum instead of being committed whole at start, and a
     * periodic collection while idle gives unused heap back to the OS. Throughput under load is the same: the heap
     * grows as the collector needs. Memory malloc'ed and freed again (the JIT compilers' arenas, the collector's
     * remembered sets, NIO buffers) stays in glibc's arenas until trimmed: a trim every {@value #TRIM_INTERVAL_MS} ms
     * gives it back, where this JDK has the flag (17.0.9 and later; the stack's JVMs run the launcher's own JDK). It is
     * worth tens of MB per JVM at most: ~60 MB over the dev stack's seven after the soak of docs/benchmarks.md. A socket
     * read into or write from a heap buffer goes through a direct buffer the JDK caches per thread, as large as the
     * largest transfer that thread made (a Kafka client's fetch responses run to megabytes) and never given back: above
     * {@value #NIO_CACHED_BUFFER_MAX} bytes such a buffer is freed after use instead.
     */
    static final List<String> FOOTPRINT = footprint(hasVmOption(TRIM_OPTION));

    static List<String> footprint(boolean trimsNativeHeap) {
        List<String> flags = new ArrayList<>(List.of("-Xms64m", "-XX:G1PeriodicGCInterval=60000", "-Djdk.nio.maxCachedBufferSize=" + NIO_CACHED_BUFFER_MAX));
        if (trimsNativeHeap) flags.add("-XX:" + TRIM_OPTION + "=" + TRIM_INTERVAL_MS);
        return List.copyOf(flags);
    }

    /** Whether this JVM (so the JDK every JVM of the stack runs) knows the {@code -XX} option {@code name}. */
    static boolean hasVmOption(String name) {
        try {
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).getVMOption(name);
            return true;
        } catch (IllegalArgumentException unknown) {
            return false;
        }
    }

    private JavaCommand(String heap, JvmCollector collector) {
        args.add(java());
        args.addAll(FOOTPRINT);
        args.add("-Xmx" + heap);
        args.add(collector.flag());
        args.add("-XX:+ExitOnOutOfMemoryError");
        args.add("-Djava.net.preferIPv4Stack=true");
    }

    private static final Pattern MEMORY_SIZE = Pattern.compile("[1-9][0-9]*[kKmMgG]?");

    /** A heap size from configuration key {@code key}, refused here naming the key: the JVM would only say "Invalid maximum heap size" in its log. */
    static String heapSize(PinfeedConfig config, String key, String fallback) {
        return memorySize(config, key, fallback, "a heap size");
    }

    /** A memory size (digits and k, m or g) from configuration key {@code key}, refused naming the key and {@code what} it is. */
    static String memorySize(PinfeedConfig config, String key, String fallback, String what) {
        String size = config.get(key, fallback);
        if (!MEMORY_SIZE.matcher(size).matches()) throw new IllegalArgumentException(key + " must be " + what + " like 256m or 1g: '" + size + "'");
        return size;
    }

    static JavaCommand withHeap(String heap) {
        return withHeap(heap, JvmCollector.G1);
    }

    static JavaCommand withHeap(String heap, JvmCollector collector) {
        return new JavaCommand(heap, collector);
    }

    /**
     * A short-lived command-line JVM (the operators' CLI): C1 only and the serial collector, which halve the
     * CPU and wall time of a JVM that mostly loads classes on a busy box (as ./pinfeed's own CLI flags).
     */
    static JavaCommand cli() {
        JavaCommand java = new JavaCommand();
        java.args.addAll(List.of("-Xmx512m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Djava.net.preferIPv4Stack=true"));
        return java;
    }

    private JavaCommand() {
        args.add(java());
    }

    /** The java launcher of this JVM's JDK (not whatever java the PATH finds first). */
    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    JavaCommand flags(List<String> flags) {
        args.addAll(flags);
        return this;
    }

    JavaCommand property(String key, Object value) {
        args.add("-D" + key + "=" + value);
        return this;
    }

    /** Logs go to a rolling file at the given level (see log4j2-server.xml). */
    JavaCommand logTo(Path logFile, String level, Path log4jConfig) {
        args.addAll(logOptions(logFile, level, log4jConfig));
        return this;
    }

    static List<String> logOptions(Path logFile, String level, Path log4jConfig) {
        return List.of("-Dlog4j2.configurationFile=" + log4jConfig, "-Dpinfeed.log.file=" + logFile, "-Dpinfeed.log.level=" + level);
    }

    /** {@code options} as a java launcher argument file ({@code java @file}): one per line, each quoted. */
    static String argumentFile(List<String> options) {
        StringBuilder out = new StringBuilder();
        for (String o : options) out.append('"').append(o.replace("\\", "\\\\").replace("\"", "\\\"")).append("\"\n");
        return out.toString();
    }

    List<String> run(String classpath, String mainClass, String... mainArgs) {
        List<String> cmd = new ArrayList<>(args);
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add(mainClass);
        cmd.addAll(List.of(mainArgs));
        return cmd;
    }
}
