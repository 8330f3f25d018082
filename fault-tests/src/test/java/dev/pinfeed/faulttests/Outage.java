package dev.pinfeed.faulttests;

import dev.pinfeed.infra.stack.LocalStack;
import java.time.Duration;
import java.util.Locale;

/**
 * One kill -9 of a shared server and its restart. Use in try-with-resources: {@link #close()} restarts
 * the server if the test did not (a failed assertion, an exception), and in every case waits until
 * {@code isUp}, so the shared stack is left as it was found. Other engineers' tests run on the same
 * servers: keep the window short.
 */
final class Outage implements AutoCloseable {

    private static final Duration UP_WITHIN = Duration.ofMinutes(3);
    /** Servers launched from a module's classpath file (built by ./pinfeed in the checkout the tests run from). */
    private static final java.util.Map<String, String> JVM_SERVERS = java.util.Map.of("kafka", "infra/kafka-server",
            "hbase-primary", "infra/hbase-server", "hbase-standby", "infra/hbase-server");

    private final LocalStack servers;
    private final String server;
    private final long killedAt;
    private long restartedAt;
    private long upAt;

    private Outage(LocalStack servers, String server) {
        this.servers = servers;
        this.server = server;
        this.killedAt = System.nanoTime();
    }

    /** Kills {@code server} with SIGKILL; refuses (fails the test) when it is not up now, so we never "restart" a server we did not stop. */
    static Outage kill9(LocalStack servers, String server) {
        Preload.pinfeedClasses();
        if (!servers.isUp(server)) throw new IllegalStateException(server + " is not up before the fault: not killing it (see ./pinfeed status)");
        String module = JVM_SERVERS.get(server);
        if (module != null) servers.layout().classpathOf(module); // throws unless this checkout can launch it again: never kill what we cannot restart
        servers.kill(server);
        System.err.println("[fault] killed -9 " + server);
        return new Outage(servers, server);
    }

    /** Starts the server again and returns once it is up (LocalStack.startServer waits for its health check). */
    void restart() {
        if (restartedAt != 0) return;
        restartedAt = System.nanoTime();
        servers.startServer(server);
        long deadline = System.nanoTime() + UP_WITHIN.toNanos();
        while (!servers.isUp(server)) {
            if (System.nanoTime() > deadline) throw new IllegalStateException(server + " not up " + UP_WITHIN + " after its restart");
            sleep(200);
        }
        upAt = System.nanoTime();
        System.err.printf(Locale.ROOT, "[fault] %s up again %.1f s after the kill (start took %.1f s)%n", server,
                (upAt - killedAt) / 1e9, (upAt - restartedAt) / 1e9);
    }

    long killedAt() {
        return killedAt;
    }

    /** When the restart began: the end of the "server down" window. */
    long restartedAt() {
        return restartedAt;
    }

    /** When the server answered again. */
    long upAt() {
        return upAt;
    }

    /** Kill to up again. */
    Duration downFor() {
        return Duration.ofNanos(upAt - killedAt);
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        if (upAt == 0) {
            restartedAt = 0;
            try {
                restart();
            } catch (RuntimeException | Error e) {
                System.err.println("[fault] !!! could not restart " + server + " after killing it: run ./pinfeed start " + server + " (" + e + ")");
                throw e;
            }
        }
    }

    /** Waits (up to 120 s) until {@code server} answers again, e.g. a replica that follows a restarted master. */
    static void awaitUp(dev.pinfeed.infra.stacktestkit.TestStack stack, String server) {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (!stack.servers().isUp(server)) {
            if (System.nanoTime() > deadline) throw new AssertionError(server + " not up 120 s after the fault");
            sleep(200);
        }
    }
}
