package dev.pinfeed.infra.stack;

import dev.pinfeed.clikit.Cli;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Keeps {@code ./pinfeed dev}'s servers and apps running. A process that ran and is found not running
 * at two checks in a row (a crash, an out-of-memory exit, a kill -9; two, so a {@code ./pinfeed
 * restart} from another shell is not raced) is started again and the restart is reported. One that
 * keeps dying is started again after a growing pause (5 s, 10 s, 20 s ... at most 60 s), reset once
 * it has stayed up for a minute; one that never ran (it failed at start, which the dev run reported)
 * is left alone. {@link #close} ends it before the stack is stopped, so a stop is never undone.
 *
 * <p>Why: a dead server otherwise stays dead (e.g. the standby HBase after a long stall under load:
 * the primary queues replication and speculative reads lose their second cluster, unnoticed).
 */
public final class Watchdog implements AutoCloseable {

    /** What the watchdog watches: {@link LocalStack} under {@code ./pinfeed dev}. */
    public interface Processes {
        List<String> names();

        boolean isRunning(String name);

        /** Starts the process and waits until it is up; throws when it does not come up. */
        void start(String name);
    }

    static final Duration FIRST_PAUSE = Duration.ofSeconds(5);
    static final Duration MAX_PAUSE = Duration.ofSeconds(60);
    /** Up this long after a restart: its next death counts as a first one again. */
    static final Duration STABLE = Duration.ofSeconds(60);

    private static final class Watched {
        boolean ran;
        boolean missing; // not running at the last check
        int restarts; // in a row
        long upSinceMillis;
        long nextTryMillis;
    }

    private final Processes processes;
    private final Clock clock;
    private final Consumer<String> say;
    private final Map<String, Watched> watched = new LinkedHashMap<>();
    private final ReentrantLock checking = new ReentrantLock();
    private volatile boolean closed;

    public Watchdog(Processes processes, Clock clock, Consumer<String> say) {
        this.processes = processes;
        this.clock = clock;
        this.say = say;
    }

    /** One look at every process; restarts those that died (blocking while one starts). */
    public void check() {
        checking.lock();
        try {
            for (String name : processes.names()) {
                if (closed) return;
                check(name, watched.computeIfAbsent(name, n -> new Watched()));
            }
        } finally {
            checking.unlock();
        }
    }

    private void check(String name, Watched w) {
        long now = clock.millis();
        if (processes.isRunning(name)) {
            if (!w.ran || w.missing) w.upSinceMillis = now;
            w.ran = true;
            w.missing = false;
            if (w.restarts > 0 && now - w.upSinceMillis >= STABLE.toMillis()) w.restarts = 0;
            return;
        }
        boolean confirmed = w.missing;
        w.missing = true;
        if (!w.ran || !confirmed || now < w.nextTryMillis) return;
        w.restarts++;
        say.accept(name + " is not running any more: starting it again"
                + (w.restarts > 1 ? " (restart " + w.restarts + " in a row)" : "") + "; its log: ./pinfeed logs " + name);
        Duration pause = pause(w.restarts);
        try {
            processes.start(name);
            w.missing = false;
            w.upSinceMillis = clock.millis();
        } catch (RuntimeException e) {
            say.accept(name + " did not come back (" + Cli.firstLine(e) + "); next try in " + pause.toSeconds() + " s");
        }
        w.nextTryMillis = clock.millis() + pause.toMillis();
    }

    /** The pause after the {@code n}-th restart in a row before another: 5 s, doubling, at most 60 s. */
    static Duration pause(int n) {
        if (n <= 1) return FIRST_PAUSE;
        long ms = FIRST_PAUSE.toMillis() << Math.min(n - 1, 10);
        return Duration.ofMillis(Math.min(ms, MAX_PAUSE.toMillis()));
    }

    /**
     * No more restarts. Waits (up to 10 s) for a restart under way, so the stop that follows also stops
     * what it started.
     */
    @Override
    public void close() {
        closed = true;
        try {
            if (checking.tryLock(10, TimeUnit.SECONDS)) checking.unlock();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
