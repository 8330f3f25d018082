package dev.pinfeed.operations;

import dev.pinfeed.infra.stacktestkit.ChildJvm;
import dev.pinfeed.operations.replay.Processors;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** A view's processor as a child JVM of the test (its real main), stopped and started by the operations commands. */
public final class ChildJvmProcessor implements Processors, AutoCloseable {

    private final String app;
    private final String mainClass;
    private final Map<String, String> properties;
    private final Path stateDir;
    private ChildJvm running;
    private int starts;

    /** {@code stateDir}: the app's local state directory (what a fan-out replay wipes), or null. */
    public ChildJvmProcessor(String app, String mainClass, Map<String, String> properties, Path stateDir) {
        this.app = app;
        this.mainClass = mainClass;
        this.properties = Map.copyOf(properties);
        this.stateDir = stateDir;
    }

    public synchronized ChildJvmProcessor start() throws Exception {
        if (running == null || !running.isAlive()) {
            running = ChildJvm.start(mainClass, properties);
            starts++;
        }
        return this;
    }

    public synchronized int starts() {
        return starts;
    }

    public synchronized String output() {
        return running == null ? "" : running.output();
    }

    @Override
    public String describe() {
        return "the test's child JVM";
    }

    @Override
    public synchronized Optional<Boolean> running(String name) {
        return Optional.of(name.equals(app) && running != null && running.isAlive());
    }

    @Override
    public synchronized void stop(String name, String why) throws Exception {
        if (running != null) running.stop(Duration.ofSeconds(30));
        running = null;
    }

    @Override
    public void start(String name) throws Exception {
        start();
    }

    @Override
    public Optional<Path> localStateDir(String name) {
        return Optional.ofNullable(stateDir);
    }

    @Override
    public synchronized void close() throws Exception {
        stop(app, "end of test");
    }
}
