package dev.pinfeed.feedservice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.RunningHttpApp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.function.Supplier;

/** A feed-service app started on first use (subclasses connect their stores in their own @BeforeEach, after the caller's), and calls to it. */
final class FeedAppClient implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private final Supplier<HttpApp> app;
    private RunningHttpApp running;

    FeedAppClient(Supplier<HttpApp> app) {
        this.app = app;
    }

    URI base() {
        if (running == null) running = app.get().start("127.0.0.1", 0);
        return running.baseUri();
    }

    /** GET {@code path}, asserting the status; the body as JSON. */
    JsonNode get(String path, int status) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(base() + path)).GET().build(), status);
    }

    JsonNode post(String path, String body, int status) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(base() + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), status);
    }

    private JsonNode send(HttpRequest request, int status) throws Exception {
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        return JSON.readTree(r.body());
    }

    @Override
    public void close() {
        if (running != null) running.close();
        running = null;
    }
}
