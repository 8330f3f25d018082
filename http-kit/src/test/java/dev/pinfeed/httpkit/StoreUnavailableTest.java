package dev.pinfeed.httpkit;

import static dev.pinfeed.httpkit.TestHttp.get;
import static dev.pinfeed.httpkit.TestHttp.json;
import static dev.pinfeed.httpkit.TestHttp.send;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pinfeed.config.StoreUnavailableException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A store outage is a 503 naming the store (retry shortly); any other surprise stays a 500. */
@Timeout(60) // a hang guard for a loaded box, not a timing
class StoreUnavailableTest {

    private final List<LogEvent> logged = new CopyOnWriteArrayList<>();
    private AbstractAppender capture;
    private RunningHttpApp running;

    @BeforeEach
    void start() {
        capture = new AbstractAppender("capture", null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                if (event.getLoggerName().equals(HttpApp.class.getName())) {
                    logged.add(event.toImmutable());
                }
            }
        };
        capture.start();
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        context.getConfiguration().getRootLogger().addAppender(capture, Level.WARN, null);
        context.updateLoggers();

        StoreUnavailableException down = new StoreUnavailableException("redis001",
                "connection refused by 10.0.0.7:6379", new ConnectException("Connection refused"));
        running = HttpApp.builder("outage-test")
                .authenticator(token -> new Principal(token, Set.of("*")))
                .route("GET", "/v1/read", r -> {
                    throw down;
                })
                .route("POST", "/v1/write", r -> {
                    throw new StoreUnavailableException("mysql002", "timed out after 3000 ms");
                })
                .route("GET", "/v1/bug", r -> {
                    throw new IllegalArgumentException("a bug");
                })
                .healthCheck("redis001", () -> {
                    throw down;
                })
                .build()
                .start("127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        running.close();
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        context.getConfiguration().getRootLogger().removeAppender("capture");
        context.updateLoggers();
        capture.stop();
    }

    @Test
    void storeUnavailableIs503NamingTheStoreWithRetryAfter() {
        HttpResponse<String> response = get(running, "/v1/read");

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        JsonNode body = json(response);
        assertThat(body.path("type").asText()).isEqualTo("https://pinfeed.dev/problems/service-unavailable");
        assertThat(body.path("status").asInt()).isEqualTo(503);
        assertThat(body.path("detail").asText()).contains("redis001");
        assertThat(body.path("store").asText()).isEqualTo("redis001");
        assertThat(response.body()).as("no internals in the answer").doesNotContain("10.0.0.7");
    }

    @Test
    void storeUnavailableOnTheHandlerPoolToo() {
        HttpResponse<String> response = send(running, "POST", "/v1/write", "{}", "Authorization", "Bearer t",
                "Content-Type", "application/json");

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(json(response).path("store").asText()).isEqualTo("mysql002");
    }

    @Test
    void anOutageIsOneWarnLineWithoutAStackTrace() {
        get(running, "/v1/read");

        assertThat(logged).hasSize(1);
        LogEvent event = logged.get(0);
        assertThat(event.getLevel()).isEqualTo(Level.WARN);
        assertThat(event.getThrown()).isNull();
        assertThat(event.getMessage().getFormattedMessage()).contains("redis001").contains("/v1/read");
    }

    @Test
    void anyOtherExceptionStaysA500WithItsStackLogged() {
        HttpResponse<String> response = get(running, "/v1/bug");

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.headers().firstValue("Retry-After")).isEmpty();
        JsonNode body = json(response);
        assertThat(body.path("type").asText()).isEqualTo("https://pinfeed.dev/problems/internal-error");
        assertThat(body.path("detail").asText()).isEqualTo("unexpected server error; it has been logged");
        assertThat(body.has("store")).isFalse();
        assertThat(logged).hasSize(1);
        assertThat(logged.get(0).getThrown()).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aHealthCheckThrowingItMakesReadinessDownNamingTheStore() throws IOException {
        HttpResponse<String> response = get(running, "/health/ready");

        assertThat(response.statusCode()).isEqualTo(503);
        JsonNode body = json(response);
        assertThat(body.path("type").asText()).isEqualTo("https://pinfeed.dev/problems/dependency-down");
        assertThat(body.path("detail").asText()).startsWith("redis001: redis001 unavailable");
        assertThat(get(running, "/health/live").statusCode()).as("a dependency never fails liveness").isEqualTo(200);
    }
}
