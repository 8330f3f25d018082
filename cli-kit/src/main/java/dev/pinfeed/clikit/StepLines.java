package dev.pinfeed.clikit;

import java.io.PrintWriter;

/**
 * The lines of a command that goes in steps and waits between some (a failover waiting for its replica): each step
 * is a line of its own; on a terminal a wait's line replaces the wait line before it (one updating line), elsewhere
 * every wait line stays (plain periodic lines). Safe to call from several threads (a backup dumps its hosts in parallel).
 */
public final class StepLines implements AutoCloseable {

    private final PrintWriter out;
    private final boolean tty;
    private final String prefix;
    private boolean waitLineOpen;

    public StepLines(PrintWriter out, Progress.Mode mode, String prefix) {
        this.out = out;
        this.tty = mode == Progress.Mode.TTY;
        this.prefix = prefix;
    }

    /** A step done: a line that stays. */
    public synchronized void step(String line) {
        endWaitLine();
        out.println(prefix + line);
        out.flush();
    }

    /** How a wait stands now: on a terminal it replaces the previous wait line. */
    public synchronized void waiting(String line) {
        if (!tty) {
            step(line);
            return;
        }
        out.print("\r" + prefix + line + "\033[K");
        out.flush();
        waitLineOpen = true;
    }

    private void endWaitLine() {
        if (waitLineOpen) out.println();
        waitLineOpen = false;
    }

    @Override
    public synchronized void close() {
        endWaitLine();
        out.flush();
    }
}
