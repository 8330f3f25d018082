package dev.pinfeed.clikit;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Ctrl-C (SIGINT) or SIGTERM during a long command: the command's loop sees {@link #requested()} and stops
 * at its next consistent point (a batch written, a partition's offsets committed), then {@link #close()}s.
 * The JVM's exit waits for that (at most {@code grace}) and then prints what was left and how to resume.
 * A command that ends normally closes it and nothing is printed.
 */
public final class Interruption implements AutoCloseable {

    private final PrintWriter err;
    private final Supplier<String> howToResume;
    private final Duration grace;
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook;
    private volatile boolean requested;

    private Interruption(PrintWriter err, Supplier<String> howToResume, Duration grace) {
        this.err = err;
        this.howToResume = howToResume;
        this.grace = grace;
        this.hook = new Thread(this::onSignal, "pinfeed-interrupt");
    }

    /** Listens for the end of the JVM from now until {@link #close()}; {@code howToResume} is asked at that moment. */
    public static Interruption install(PrintWriter err, Duration grace, Supplier<String> howToResume) {
        Interruption i = new Interruption(err, howToResume, grace);
        Runtime.getRuntime().addShutdownHook(i.hook);
        return i;
    }

    /** True once the user asked the command to stop: stop at the next consistent point. */
    public boolean requested() {
        return requested;
    }

    private void onSignal() {
        if (finished.getCount() == 0) return;
        requested = true;
        boolean stopped;
        try {
            stopped = finished.await(grace.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            stopped = false;
        }
        err.println();
        err.println((stopped ? "interrupted; stopped at a consistent point. " : "interrupted; still stopping when the process ended. ")
                + howToResume.get());
        err.flush();
    }

    /** The command is done (normally, or it stopped after {@link #requested()}): the exit hook prints only if it was asked. */
    @Override
    public void close() {
        finished.countDown();
        if (!requested) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is already exiting: the hook runs and sees the command finished
            }
        }
    }
}
