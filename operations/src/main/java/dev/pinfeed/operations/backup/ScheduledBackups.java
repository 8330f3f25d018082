package dev.pinfeed.operations.backup;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.Meters;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.processorruntime.ProcessMain;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code backup create --every}: a long-running process like the others, observable on its admin
 * endpoint ({@code /health/live}, {@code /health/ready} failing while the last attempt failed, naming why;
 * {@code /metrics}: {@code pinfeed_backup_runs_total{outcome}}, {@code pinfeed_backup_duration_seconds},
 * {@code pinfeed_backup_last_success_seconds}, {@code pinfeed_backup_last_bytes}, and the JVM's). A failed
 * backup is reported and counted, and the next one is tried a period later: a store down for a moment
 * must not end the schedule.
 */
final class ScheduledBackups implements AutoCloseable {

    static final HostPort DEFAULT_ADMIN = new HostPort("127.0.0.1", 8095);

    private final PrometheusMeterRegistry meters = Meters.newRegistry();
    private final Counter ok = Counter.builder("pinfeed_backup_runs_total").tag("outcome", "ok").register(meters);
    private final Counter failed = Counter.builder("pinfeed_backup_runs_total").tag("outcome", "failed").register(meters);
    private final Timer took = Timer.builder("pinfeed_backup_duration_seconds").register(meters);
    private final AtomicLong lastSuccess = new AtomicLong();
    private final AtomicLong lastBytes = new AtomicLong();
    private final Clock clock;
    private final PrintWriter out;
    private final RunningHttpApp admin;
    private volatile String lastFailure;

    /** {@code adminPort} 0: any free port (tests). */
    ScheduledBackups(String adminHost, int adminPort, Clock clock, PrintWriter out) {
        this.clock = clock;
        this.out = out;
        Gauge.builder("pinfeed_backup_last_success_seconds", lastSuccess, AtomicLong::get).register(meters);
        Gauge.builder("pinfeed_backup_last_bytes", lastBytes, AtomicLong::get).register(meters);
        admin = HttpApp.builder("backup").meterRegistry(meters).liveness("process", () -> { })
                .healthCheck("backup", () -> {
                    String why = lastFailure;
                    if (why != null) throw new IllegalStateException("the last backup failed: " + why);
                })
                .build().start(adminHost, adminPort);
        out.println("[pinfeed] backups every period; health and metrics at " + admin.baseUri());
        out.flush();
    }

    RunningHttpApp admin() {
        return admin;
    }

    /** Runs {@code attempt} (one backup; it answers its size in bytes) once: true if it succeeded; a failure is printed, counted and shown by readiness. */
    boolean run(Callable<Long> attempt) {
        long started = clock.millis();
        try {
            long bytes = attempt.call();
            took.record(Duration.ofMillis(clock.millis() - started));
            lastBytes.set(bytes);
            lastSuccess.set(clock.instant().getEpochSecond());
            lastFailure = null;
            ok.increment();
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (Exception e) {
            lastFailure = ProcessMain.oneLine(e);
            failed.increment();
            out.printf(Locale.ROOT, "[pinfeed] backup failed: %s; the next attempt is a period later%n", lastFailure);
            out.flush();
            return false;
        }
    }

    @Override
    public void close() {
        admin.close();
        meters.close();
    }
}
