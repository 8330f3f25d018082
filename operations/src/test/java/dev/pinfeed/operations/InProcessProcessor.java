package dev.pinfeed.operations;

import dev.pinfeed.operations.replay.Processors;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A view's processor run in the test's JVM (a consumer loop, or anything closeable), stopped and started by the
 * operations commands through the {@link Processors} port as they stop and start the local stack's apps.
 */
public final class InProcessProcessor implements Processors, AutoCloseable {

    private final String app;
    private final Supplier<AutoCloseable> starter;
    private AutoCloseable running;
    private int starts;

    public InProcessProcessor(String app, Supplier<AutoCloseable> starter) {
        this.app = app;
        this.starter = starter;
    }

    public synchronized InProcessProcessor start() {
        if (running == null) {
            running = starter.get();
            starts++;
        }
        return this;
    }

    /** How often it was started (the first start included). */
    public synchronized int starts() {
        return starts;
    }

    @Override
    public String describe() {
        return "the test";
    }

    @Override
    public synchronized Optional<Boolean> running(String name) {
        return Optional.of(name.equals(app) && running != null);
    }

    @Override
    public synchronized void stop(String name, String why) throws Exception {
        if (!name.equals(app)) throw new IllegalArgumentException("no app " + name);
        if (running != null) running.close();
        running = null;
    }

    @Override
    public void start(String name) {
        if (!name.equals(app)) throw new IllegalArgumentException("no app " + name);
        start();
    }

    @Override
    public Optional<Path> localStateDir(String name) {
        return Optional.empty();
    }

    @Override
    public synchronized void close() throws Exception {
        stop(app, "end of test");
    }
}
