package dev.pinfeed.operations.replay;

import dev.pinfeed.infra.stack.LocalStack;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The local stack's apps ({@code ./pinfeed dev}): stopped and held down (its watchdog leaves a held app alone,
 * {@code ./pinfeed status} says why), started again through the launcher, which waits until the app is ready.
 */
public final class LocalStackProcessors implements Processors {

    private final LocalStack stack;

    public LocalStackProcessors(LocalStack stack) {
        this.stack = stack;
    }

    @Override
    public String describe() {
        return "the local stack (" + stack.layout().home() + ")";
    }

    @Override
    public Optional<Boolean> running(String app) {
        return Optional.of(stack.isRunning(app));
    }

    @Override
    public void stop(String app, String why) {
        stack.stopAndHold(app, why);
    }

    @Override
    public void start(String app) {
        stack.startServer(app);
    }

    @Override
    public Optional<Path> localStateDir(String app) {
        return Optional.of(stack.dataDirOf(app));
    }
}
