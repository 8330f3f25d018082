package dev.pinfeed.infra.stack;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One server process of the stack, tracked by a pid file so any shell (or test JVM) can find, stop
 * or restart it. Servers run in their own session (setsid): a Ctrl-C on the terminal reaches only
 * the supervisor, which then stops them in order.
 */
final class ManagedProcess {

    private final String name;
    private final Path pidFile;
    private final Path outFile;

    ManagedProcess(String name, StackLayout layout) {
        this.name = name;
        this.pidFile = layout.runDir().resolve(name + ".pid");
        this.outFile = layout.logsDir().resolve(name + ".out");
    }

    String name() {
        return name;
    }

    Path outFile() {
        return outFile;
    }

    /** The live process this pid file names; a stale file (dead or reused pid) counts as none. */
    Optional<ProcessHandle> running() {
        if (!Files.isRegularFile(pidFile)) return Optional.empty();
        try {
            String[] parts = Files.readString(pidFile).trim().split("\\s+");
            long pid = Long.parseLong(parts[0]);
            long startedMs = parts.length > 1 ? Long.parseLong(parts[1]) : -1;
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(h -> sameStart(h, startedMs));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static boolean sameStart(ProcessHandle h, long startedMs) {
        if (startedMs < 0) return true;
        return h.info().startInstant().map(i -> Math.abs(i.toEpochMilli() - startedMs) < 2_000).orElse(true);
    }

    ProcessHandle start(List<String> command) {
        List<String> cmd = new ArrayList<>();
        cmd.add("setsid");
        cmd.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(outFile.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        try {
            Process p = pb.start();
            long started = p.info().startInstant().map(Instant::toEpochMilli).orElse(-1L);
            Files.writeString(pidFile, p.pid() + " " + started + "\n");
            return p.toHandle();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + e.getMessage(), e);
        }
    }

    /** SIGTERM, then SIGKILL after the grace period. True when it had to be killed. */
    boolean stop(Duration grace) {
        Optional<ProcessHandle> handle = running();
        boolean killed = false;
        if (handle.isPresent()) {
            ProcessHandle h = handle.get();
            h.destroy();
            try {
                h.onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception timeoutOrInterrupt) {
                h.destroyForcibly();
                killed = true;
                try {
                    h.onExit().get(10, TimeUnit.SECONDS);
                } catch (Exception ignored) {
                    // reported by the caller's final check
                }
            }
        }
        try {
            Files.deleteIfExists(pidFile);
        } catch (IOException ignored) {
            // a stale pid file is detected by start time anyway
        }
        return killed;
    }

    /** kill -9, for crash tests. */
    void kill() {
        running().ifPresent(h -> {
            h.destroyForcibly();
            h.onExit().join();
        });
    }

    /** The last lines of the server's console output, for error messages. */
    String tail(int lines) {
        try {
            if (!Files.exists(outFile)) return "";
            List<String> all = Files.readAllLines(outFile);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "";
        }
    }
}
