package dev.pinfeed.processorruntime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.httpkit.RunningHttpApp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ProcessContextTest {

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void notReadyWhileStarting_thenReadyOnlyWhenEveryRegisteredCheckPasses() throws Exception {
        Properties p = new Properties();
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort(); // HostPort wants a real port; this one was free a moment ago
        }
        p.setProperty("demo.admin.http", "127.0.0.1:" + port);
        try (ProcessContext ctx = new ProcessContext("demo", PinfeedConfig.of(p), Clock.systemUTC())) {
            RunningHttpApp admin = ctx.step("serving the admin endpoint", ctx::serveAdmin);
            ctx.step("connecting to the store", () -> {
                HttpResponse<String> during = get(admin, "/health/ready");
                assertThat(during.statusCode()).isEqualTo(503);
                assertThat(during.body()).contains("starting: connecting to the store");
                assertThat(get(admin, "/health/live").statusCode()).as("alive while starting").isEqualTo(200);
                return null;
            });
            boolean[] storeUp = {false};
            ctx.readiness("store", () -> {
                if (!storeUp[0]) throw new IllegalStateException("store down");
            });
            ctx.started();
            assertThat(get(admin, "/health/ready").body()).contains("store down").doesNotContain("starting");
            storeUp[0] = true;
            assertThat(get(admin, "/health/ready").statusCode()).isEqualTo(200);
        }
    }

    private HttpResponse<String> get(RunningHttpApp admin, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(admin.baseUri() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
