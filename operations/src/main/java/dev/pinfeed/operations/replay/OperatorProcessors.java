package dev.pinfeed.operations.replay;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A deployment this command does not run (Kubernetes, systemd, another host): it tells the operator what to
 * stop and start, and the replay watches the consumer groups to know when that happened (no member left;
 * members again). Nothing here touches a process.
 */
public final class OperatorProcessors implements Processors {

    private final PrintWriter out;

    public OperatorProcessors(PrintWriter out) {
        this.out = out;
    }

    @Override
    public String describe() {
        return "the operator";
    }

    @Override
    public Optional<Boolean> running(String app) {
        return Optional.empty();
    }

    @Override
    public void stop(String app, String why) {
        out.println("stop every instance of " + app + " now (" + why + "); waiting until its consumer groups have no member ...");
        out.flush();
    }

    @Override
    public void start(String app) {
        out.println("start " + app + " again now; its consumer groups resume from the replay's offsets");
        out.flush();
    }

    @Override
    public Optional<Path> localStateDir(String app) {
        return Optional.empty();
    }
}
