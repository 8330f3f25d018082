package dev.pinfeed.operations.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ScheduledBackupsTest {

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> get(ScheduledBackups schedule, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(schedule.admin().baseUri().resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aFailedBackupIsCountedAndShownByReadinessUntilOneSucceedsAndTheScheduleGoesOn() throws Exception {
        StringWriter printed = new StringWriter();
        Clock clock = Clock.fixed(Instant.parse("2026-11-28T12:00:00Z"), ZoneOffset.UTC);
        try (ScheduledBackups schedule = new ScheduledBackups("127.0.0.1", 0, clock, new PrintWriter(printed, true))) {
            assertThat(get(schedule, "/health/ready").statusCode()).as("nothing failed yet").isEqualTo(200);

            boolean first = schedule.run(() -> {
                throw new IllegalStateException("mysql001 does not answer");
            });

            assertThat(first).isFalse();
            assertThat(printed.toString()).contains("backup failed: mysql001 does not answer");
            HttpResponse<String> ready = get(schedule, "/health/ready");
            assertThat(ready.statusCode()).isEqualTo(503);
            assertThat(ready.body()).contains("the last backup failed: mysql001 does not answer");
            assertThat(get(schedule, "/health/live").statusCode()).as("a failed backup is not a dead process").isEqualTo(200);

            assertThat(schedule.run(() -> 12_345L)).isTrue();

            assertThat(get(schedule, "/health/ready").statusCode()).isEqualTo(200);
            String metrics = get(schedule, "/metrics").body();
            assertThat(metrics).contains("pinfeed_backup_runs_total{outcome=\"failed\"} 1.0")
                    .contains("pinfeed_backup_runs_total{outcome=\"ok\"} 1.0")
                    .contains("pinfeed_backup_duration_seconds_count 1")
                    .contains("jvm_memory_used_bytes");
            assertThat(value(metrics, "pinfeed_backup_last_bytes")).isEqualTo(12_345.0);
            assertThat(value(metrics, "pinfeed_backup_last_success_seconds")).isEqualTo((double) clock.instant().getEpochSecond());
        }
    }

    private static double value(String metrics, String name) {
        return metrics.lines().filter(l -> l.startsWith(name + " ")).map(l -> Double.parseDouble(l.substring(name.length() + 1).trim()))
                .findFirst().orElseThrow(() -> new AssertionError("no " + name + " in " + metrics));
    }
}
