package dev.pinfeed.httpkit;

import static dev.pinfeed.httpkit.TestHttp.get;
import static dev.pinfeed.httpkit.TestHttp.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60) // a hang guard for a loaded box, not a timing
class OpenApiTest {

    private static HttpApp app(String resource) {
        HttpApp.Builder builder = HttpApp.builder("openapi-test")
                .authenticator(token -> new Principal(token, java.util.Set.of()))
                .route("GET", "/v1/items/{itemId}", r -> Response.empty(204))
                .route("PUT", "/v1/items/{itemId}", r -> Response.empty(204));
        return resource == null ? builder.build() : builder.openApiResource(resource).build();
    }

    @Test
    void documentIsServedFromTheClasspath() throws Exception {
        try (RunningHttpApp running = app("openapi/test-openapi.json").start("127.0.0.1", 0);
             InputStream expected = getClass().getResourceAsStream("/openapi/test-openapi.json")) {
            HttpResponse<String> response = get(running, "/openapi.json");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
            assertThat(response.body()).isEqualTo(new String(expected.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void everyRouteAppearsInTheDocument() {
        HttpApp app = app("/openapi/test-openapi.json");
        try (RunningHttpApp running = app.start("127.0.0.1", 0)) {
            JsonNode paths = json(get(running, "/openapi.json")).path("paths");
            for (RouteInfo route : app.routes()) {
                assertThat(paths.path(route.pathTemplate()).has(route.method().toLowerCase(Locale.ROOT)))
                        .as("%s %s documented", route.method(), route.pathTemplate()).isTrue();
            }
        }
    }

    @Test
    void withoutADocumentItIs404() {
        try (RunningHttpApp running = app(null).start("127.0.0.1", 0)) {
            HttpResponse<String> response = get(running, "/openapi.json");

            assertThat(response.statusCode()).isEqualTo(404);
            assertThat(json(response).path("type").asText()).isEqualTo("https://pinfeed.dev/problems/not-found");
        }
    }

    @Test
    void missingOrBrokenDocumentsFailTheBuild() {
        assertThatThrownBy(() -> app("openapi/nope.json"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("not found");
        assertThatThrownBy(() -> app("openapi/broken.json"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("not valid JSON");
    }
}
