package dev.pinfeed.infra.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What Linux says about a pid ({@code /proc/<pid>/stat}): its state and start time. A process killed
 * with -9 but not yet reaped by its parent is a zombie (state Z): it still has a pid, and
 * {@link ProcessHandle#isAlive()} says true, but it runs nothing and holds no port.
 */
record ProcStat(char state, long startTicks) {

    /** The stat of a pid, or empty when there is no such process. */
    static Optional<ProcStat> of(long pid) {
        try {
            return Optional.of(parse(Files.readString(Path.of("/proc", Long.toString(pid), "stat"))));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Parses one stat line; the command name (field 2) may itself contain spaces and parentheses. */
    static ProcStat parse(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        // fields[0] is field 3 (state); field 22 (starttime, clock ticks after boot) is fields[19].
        return new ProcStat(fields[0].charAt(0), Long.parseLong(fields[19]));
    }

    /** Z (zombie) and X (dead) processes run nothing. */
    boolean runs() {
        return state != 'Z' && state != 'X';
    }

    /** True when the pid names a process that runs (not a zombie) and, if known, started at {@code startTicks}. */
    static boolean runs(long pid, long startTicks) {
        return of(pid).filter(ProcStat::runs).filter(s -> startTicks < 0 || s.startTicks() == startTicks).isPresent();
    }
}
