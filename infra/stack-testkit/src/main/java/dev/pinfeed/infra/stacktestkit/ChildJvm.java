package dev.pinfeed.infra.stacktestkit;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A pinfeed process (any main class on this test JVM's classpath) run as a child JVM, so a test can
 * kill it with SIGKILL mid-work and start it again: the crash-recovery tests of the processors.
 * Output (stdout and stderr) is kept for failure messages.
 */
public final class ChildJvm implements AutoCloseable {

    private static final int KEEP_OUTPUT = 64 * 1024;

    private final Process process;
    private final StringBuilder output = new StringBuilder();
    private final Thread reader;

    private ChildJvm(Process process) {
        this.process = process;
        this.reader = new Thread(this::drain, "child-jvm-output-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code mainClass} with {@code -Dkey=value} for each property (they override the configuration file). */
    public static ChildJvm start(String mainClass, Map<String, String> properties, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        // The child finds the stack (and its generated credentials) where this JVM does, also when run without ./pinfeed.
        String root = System.getProperty("pinfeed.root");
        if (root != null && !properties.containsKey("pinfeed.root")) command.add("-Dpinfeed.root=" + root);
        properties.forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.add(mainClass);
        command.addAll(List.of(args));
        return new ChildJvm(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    /** A TCP port free right now on 127.0.0.1 (for a child's admin endpoint). */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** kill -9: no shutdown hook runs, nothing is flushed or committed. */
    public void kill9() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM, then waits for the process's shutdown hooks up to {@code grace}; kill -9 after that. */
    public int stop(Duration grace) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) kill9();
        return process.exitValue();
    }

    /** What the child printed so far (the last 64 KiB). */
    public String output() {
        synchronized (output) {
            return output.toString();
        }
    }

    private void drain() {
        byte[] buffer = new byte[8192];
        try (InputStream in = process.getInputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                synchronized (output) {
                    output.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                    if (output.length() > KEEP_OUTPUT) output.delete(0, output.length() - KEEP_OUTPUT);
                }
            }
        } catch (IOException e) {
            // the child is gone
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) kill9();
        reader.join(5_000);
    }
}
