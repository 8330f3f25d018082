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

/**
 * One server process of the stack, tracked by a pid file so any shell (or test JVM) can find, stop
 * or restart it. Servers run in their own session (setsid): a Ctrl-C on the terminal reaches only
 * the supervisor, which then stops them in order.
 *
 * <p>The pid file holds the pid, its start time in epoch ms and in kernel clock ticks. A pid counts as
 * running only while {@code /proc} shows it running (not a zombie) with the recorded start time, so a
 * killed but unreaped process or a reused pid never passes for the server.
 */
final class ManagedProcess {

    private static final long POLL_MS = 50;

    private final String name;
    private final Path pidFile;
    private final Path outFile;

    ManagedProcess(String name, StackLayout layout) {
        this.name = name;
        this.pidFile = layout.runFile(name + ".pid");
        this.outFile = layout.logFile(name + ".out");
    }

    String name() {
        return name;
    }

    Path outFile() {
        return outFile;
    }

    Path pidFile() {
        return pidFile;
    }

    /** The live process this pid file names; a stale file (dead, zombie or reused pid) counts as none. */
    Optional<ProcessHandle> running() {
        return recorded().filter(Recorded::runs).flatMap(r -> ProcessHandle.of(r.pid()));
    }

    private Optional<Recorded> recorded() {
        if (!Files.isRegularFile(pidFile)) return Optional.empty();
        try {
            return Optional.of(Recorded.parse(Files.readString(pidFile)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Pid, start in epoch ms (older pid files stop here), start in clock ticks. */
    record Recorded(long pid, long startedMs, long startTicks) {

        static Recorded parse(String text) {
            String[] parts = text.trim().split("\\s+");
            return new Recorded(Long.parseLong(parts[0]), parts.length > 1 ? Long.parseLong(parts[1]) : -1,
                    parts.length > 2 ? Long.parseLong(parts[2]) : -1);
        }

        static Recorded of(ProcessHandle h) {
            return new Recorded(h.pid(), h.info().startInstant().map(Instant::toEpochMilli).orElse(-1L),
                    ProcStat.of(h.pid()).map(ProcStat::startTicks).orElse(-1L));
        }

        String line() {
            return pid + " " + startedMs + " " + startTicks + "\n";
        }

        boolean runs() {
            if (!ProcStat.runs(pid, startTicks)) return false;
            if (startTicks >= 0 || startedMs < 0) return true;
            // Pid files written before start ticks were recorded: the start time within clock rounding.
            return ProcessHandle.of(pid).flatMap(h -> h.info().startInstant())
                    .map(i -> Math.abs(i.toEpochMilli() - startedMs) < 2_000).orElse(true);
        }
    }

    ProcessHandle start(List<String> command) {
        List<String> cmd = new ArrayList<>();
        cmd.add("setsid");
        cmd.addAll(command);
        StackLayout.ensure(outFile.getParent());
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(outFile.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        // glibc gives each thread that allocates its own 64 MB malloc arena: a JVM with hundreds of threads (HBase, Kafka)
        // holds hundreds of MB of them. Two arenas cost no measurable throughput here (Redis uses jemalloc: no effect).
        pb.environment().put("MALLOC_ARENA_MAX", "2");
        try {
            Process p = pb.start();
            record(p.toHandle());
            return p.toHandle();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + e.getMessage(), e);
        }
    }

    /** Records {@code h} as this process (the dev supervisor records itself). */
    void record(ProcessHandle h) {
        AtomicFiles.writeIfChanged(pidFile, Recorded.of(h).line());
    }

    /** SIGTERM, then SIGKILL after the grace period. True when it had to be killed. */
    boolean stop(Duration grace) {
        Optional<Recorded> r = recorded().filter(Recorded::runs);
        boolean killed = false;
        if (r.isPresent()) {
            ProcessHandle.of(r.get().pid()).ifPresent(ProcessHandle::destroy);
            if (!awaitGone(r.get(), grace)) {
                ProcessHandle.of(r.get().pid()).ifPresent(ProcessHandle::destroyForcibly);
                killed = true;
                awaitGone(r.get(), Duration.ofSeconds(10));
            }
        }
        clear();
        return killed;
    }

    /** kill -9, for crash tests and fast stops; returns once the process runs no more (a zombie counts as gone). */
    void kill() {
        recorded().filter(Recorded::runs).ifPresent(r -> {
            ProcessHandle.of(r.pid()).ifPresent(ProcessHandle::destroyForcibly);
            if (!awaitGone(r, Duration.ofSeconds(10))) throw new IllegalStateException(name + " (pid " + r.pid() + ") survived kill -9");
        });
    }

    void clear() {
        try {
            Files.deleteIfExists(pidFile);
        } catch (IOException ignored) {
            // a stale pid file is recognised by its start time anyway
        }
    }

    /** Polls /proc: onExit() of a process that is not our child does not complete while it is an unreaped zombie. */
    private static boolean awaitGone(Recorded r, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (r.runs()) {
            if (System.nanoTime() > deadline) return false;
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return !r.runs();
            }
        }
        return true;
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

    /** The last non-blank line of the console output, for one-line errors. */
    String lastLine() {
        return tail(20).lines().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse("").trim();
    }
}
