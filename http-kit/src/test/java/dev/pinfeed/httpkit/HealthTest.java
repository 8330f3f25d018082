package dev.pinfeed.httpkit;

import static dev.pinfeed.httpkit.TestHttp.get;
import static dev.pinfeed.httpkit.TestHttp.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60) // a hang guard for a loaded box, not a timing
class HealthTest {

    /** What a hanging check is given: the no-op checks beside it must answer within it even on a loaded box. */
    private static final Duration HANGING_CHECK_TIMEOUT = Duration.ofSeconds(2);

    @Test
    void allChecksUpIs200WithEachCheckNamed() {
        HttpApp app = HttpApp.builder("health-test")
                .healthCheck("kafka", () -> { })
                .health(HealthCheck.named("mysql001", () -> { }), () -> { })
                .build();
        try (RunningHttpApp running = app.start("127.0.0.1", 0)) {
            HttpResponse<String> response = get(running, "/health");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
            assertThat(response.body()).isEqualTo(
                    "{\"status\":\"up\",\"checks\":{\"kafka\":\"up\",\"mysql001\":\"up\",\"check-3\":\"up\"}}");
        }
    }

    @Test
    void anAppWithItsAdminApartAnswersProbesWithABareStatusAndNoMetrics() {
        HttpApp app = HttpApp.builder("health-test").adminSeparately()
                .healthCheck("kafka", () -> {
                    throw new IOException("broker localhost:9092 unreachable");
                })
                .build();
        try (RunningHttpApp running = app.start("127.0.0.1", 0)) {
            HttpResponse<String> ready = get(running, "/health/ready");
            assertThat(ready.statusCode()).isEqualTo(503);
            assertThat(ready.body()).isEqualTo("{\"status\":\"down\"}");
            assertThat(get(running, "/health/live").body()).isEqualTo("{\"status\":\"up\"}");
            assertThat(get(running, "/health").statusCode()).isEqualTo(404);
            assertThat(get(running, "/metrics").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void noChecksIsUp() {
        try (RunningHttpApp running = HttpApp.builder("health-test").build().start("127.0.0.1", 0)) {
            assertThat(get(running, "/health").body()).isEqualTo("{\"status\":\"up\",\"checks\":{}}");
        }
    }

    @Test
    void failingAndHangingChecksAre503NamingEveryDependency() {
        CountDownLatch hang = new CountDownLatch(1);
        AtomicInteger hangingStarts = new AtomicInteger();
        HttpApp app = HttpApp.builder("health-test")
                .healthTimeout(HANGING_CHECK_TIMEOUT)
                .healthCheck("kafka", () -> {
                    throw new IOException("broker localhost:9092\n  unreachable");
                })
                .healthCheck("redis", () -> { })
                .healthCheck("mysql001", () -> {
                    hangingStarts.incrementAndGet();
                    hang.await();
                })
                .build();
        try (RunningHttpApp running = app.start("127.0.0.1", 0)) {
            HttpResponse<String> response = get(running, "/health");

            assertThat(response.statusCode()).isEqualTo(503);
            assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            JsonNode body = json(response);
            assertThat(body.path("type").asText()).isEqualTo("https://pinfeed.dev/problems/dependency-down");
            assertThat(body.path("status").asInt()).isEqualTo(503);
            assertThat(body.path("detail").asText())
                    .isEqualTo("kafka: broker localhost:9092 unreachable; mysql001: timed out after 2000 ms");
            assertThat(body.path("checks").path("kafka").asText()).isEqualTo("down: broker localhost:9092 unreachable");
            assertThat(body.path("checks").path("redis").asText()).isEqualTo("up");
            assertThat(body.path("checks").path("mysql001").asText()).isEqualTo("down: timed out after 2000 ms");

            // A check still hanging from the last probe is awaited again, not started a second time.
            assertThat(get(running, "/health").statusCode()).isEqualTo(503);
            assertThat(hangingStarts).hasValue(1);
        } finally {
            hang.countDown();
        }
    }

    @Test
    void checksRunInParallel() throws Exception {
        CountDownLatch bothRunning = new CountDownLatch(2);
        HealthCheck waitsForTheOther = () -> {
            bothRunning.countDown();
            if (!bothRunning.await(20, TimeUnit.SECONDS)) { // run one after the other, the first waits this out and fails
                throw new IllegalStateException("ran alone");
            }
        };
        HttpApp app = HttpApp.builder("health-test")
                .healthTimeout(Duration.ofSeconds(30)) // longer than the wait above: only "ran alone" fails the check
                .healthCheck("a", waitsForTheOther)
                .healthCheck("b", waitsForTheOther)
                .build();
        try (RunningHttpApp running = app.start("127.0.0.1", 0)) {
            assertThat(get(running, "/health").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void readinessIsHealthAndLivenessOnlyRunsLivenessChecks() {
        AtomicInteger livenessRuns = new AtomicInteger();
        HttpApp app = HttpApp.builder("health-test")
                .healthCheck("kafka", () -> {
                    throw new IOException("broker unreachable");
                })
                .liveness("event-loop", livenessRuns::incrementAndGet)
                .build();
        try (RunningHttpApp running = app.start("127.0.0.1", 0)) {
            HttpResponse<String> health = get(running, "/health");
            HttpResponse<String> ready = get(running, "/health/ready");
            HttpResponse<String> live = get(running, "/health/live");

            assertThat(ready.statusCode()).isEqualTo(503).isEqualTo(health.statusCode());
            assertThat(ready.body()).isEqualTo(health.body());
            assertThat(json(ready).path("detail").asText()).isEqualTo("kafka: broker unreachable");
            assertThat(live.statusCode()).isEqualTo(200);
            assertThat(live.body()).isEqualTo("{\"status\":\"up\",\"checks\":{\"event-loop\":\"up\"}}");
            assertThat(livenessRuns).hasValue(1);
        }
    }

    @Test
    void failingLivenessCheckIs503NamingIt() {
        HttpApp app = HttpApp.builder("health-test")
                .liveness("consumer-loop", () -> {
                    throw new IllegalStateException("no poll for 90 s");
                })
                .build();
        try (RunningHttpApp running = app.start("127.0.0.1", 0)) {
            HttpResponse<String> live = get(running, "/health/live");

            assertThat(live.statusCode()).isEqualTo(503);
            assertThat(json(live).path("detail").asText()).isEqualTo("consumer-loop: no poll for 90 s");
            assertThat(json(live).path("checks").path("consumer-loop").asText()).isEqualTo("down: no poll for 90 s");
            assertThat(get(running, "/health/ready").statusCode()).isEqualTo(200);
        }
    }

    @Test
    void withoutLivenessChecksLiveIsAlways200() {
        HttpApp app = HttpApp.builder("health-test").healthCheck("kafka", () -> {
            throw new IOException("down");
        }).build();
        try (RunningHttpApp running = app.start("127.0.0.1", 0)) {
            assertThat(get(running, "/health/live").body()).isEqualTo("{\"status\":\"up\",\"checks\":{}}");
        }
    }
}
