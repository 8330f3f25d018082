package dev.pinfeed.httpkit;

import static dev.pinfeed.httpkit.TestHttp.get;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Start-up and the base URI. How fast close() returns is measured on the real clock: {@link ShutdownIT}. */
@Timeout(60) // a hang guard for a loaded box, not a timing
class LifecycleTest {

    @Test
    void ephemeralPortAndBaseUri() {
        try (RunningHttpApp running = HttpApp.builder("life").build().start("127.0.0.1", 0)) {
            assertThat(running.port()).isPositive();
            assertThat(running.baseUri().toString()).isEqualTo("http://127.0.0.1:" + running.port());
            assertThat(running.baseUri().resolve("/health").toString()).endsWith(running.port() + "/health");
        }
    }

    @Test
    void wildcardBindReportsLoopback() {
        try (RunningHttpApp running = HttpApp.builder("life").build().start("0.0.0.0", 0)) {
            assertThat(running.baseUri().getHost()).isEqualTo("127.0.0.1");
            assertThat(get(running, "/health").statusCode()).isEqualTo(200);
        }
    }
}
