package dev.pinfeed.httpkit;

import static dev.pinfeed.httpkit.TestHttp.get;
import static dev.pinfeed.httpkit.TestHttp.json;
import static dev.pinfeed.httpkit.TestHttp.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60) // a hang guard for a loaded box, not a timing
class RoutingTest {

    private static final RouteOptions PUBLIC_WRITE = new RouteOptions(false, 1024, false);
    private static HttpApp app;
    private static RunningHttpApp running;

    @BeforeAll
    static void start() {
        app = HttpApp.builder("routing-test")
                .authenticator(token -> new Principal(token, Set.of("*")))
                .route("PUT", "/v1/users/{userId}/following/users/{targetUserId}", PUBLIC_WRITE, RoutingTest::echo)
                .route("DELETE", "/v1/users/{userId}/following/users/{targetUserId}", PUBLIC_WRITE, RoutingTest::echo)
                .route("POST", "/v1/users/{userId}/following/users:check", PUBLIC_WRITE,
                        r -> Response.json(200, Map.of("handler", "check", "userId", r.pathParam("userId"))))
                // A GET parameter route at the same depth as the literal "users:check" segment.
                .route("GET", "/v1/users/{userId}/following/{targetUserId}", RoutingTest::echo)
                .route("GET", "/v1/items", r -> Response.json(200, Map.of(
                        "limit", r.query("limit").orElse("none"),
                        "tags", r.queryAll("tag"),
                        "trace", r.header("x-TRACE-id").orElse("none"))))
                .route("GET", "/v1/missing-param/{id}", r -> Response.json(200, Map.of("x", r.pathParam("other"))))
                .route("GET", "/v1/empty", r -> Response.empty(204))
                .build();
        running = app.start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() {
        running.close();
    }

    private static Response echo(Request r) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("method", r.method());
        body.put("route", r.routeTemplate());
        body.put("params", r.pathParams());
        body.put("principal", r.principal() == null ? null : r.principal().name());
        return Response.json(200, body);
    }

    @Test
    void pathParametersAreMatchedAndDecoded() {
        HttpResponse<String> response = send(running, "PUT", "/v1/users/42/following/users/a%20b%2Fc", null);

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = json(response);
        assertThat(body.path("method").asText()).isEqualTo("PUT");
        assertThat(body.path("route").asText()).isEqualTo("/v1/users/{userId}/following/users/{targetUserId}");
        assertThat(body.path("params").path("userId").asText()).isEqualTo("42");
        assertThat(body.path("params").path("targetUserId").asText()).isEqualTo("a b/c");
        assertThat(body.has("principal")).as("explicit nulls survive serialization").isTrue();
        assertThat(body.path("principal").isNull()).isTrue();
    }

    @Test
    void queryParametersAndCaseInsensitiveHeaders() {
        HttpResponse<String> response = get(running, "/v1/items?limit=10&tag=a&tag=b%20c&flag", "X-Trace-Id", "t-1");

        JsonNode body = json(response);
        assertThat(body.path("limit").asText()).isEqualTo("10");
        assertThat(body.path("tags").toString()).isEqualTo("[\"a\",\"b c\"]");
        assertThat(body.path("trace").asText()).isEqualTo("t-1");
    }

    @Test
    void unknownPathIs404Problem() {
        HttpResponse<String> response = get(running, "/v1/nope");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        JsonNode body = json(response);
        assertThat(body.path("type").asText()).isEqualTo("https://pinfeed.dev/problems/not-found");
        assertThat(body.path("status").asInt()).isEqualTo(404);
        assertThat(body.has("field")).isFalse();
    }

    @Test
    void knownPathWithOtherMethodIs405WithAllow() {
        HttpResponse<String> response = send(running, "POST", "/v1/users/1/following/users/2", "{}",
                "Content-Type", "application/json");

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("Allow")).hasValue("DELETE, PUT");
        assertThat(json(response).path("type").asText()).isEqualTo("https://pinfeed.dev/problems/method-not-allowed");
    }

    @Test
    void literalColonSegmentIsNotTakenByAParameterOfAnotherMethod() {
        HttpResponse<String> get = get(running, "/v1/users/7/following/users:check");
        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(get.headers().firstValue("Allow")).hasValue("POST");

        HttpResponse<String> post = send(running, "POST", "/v1/users/7/following/users:check", "{}",
                "Content-Type", "application/json");
        assertThat(post.statusCode()).isEqualTo(200);
        assertThat(json(post).path("handler").asText()).isEqualTo("check");
        assertThat(json(post).path("userId").asText()).isEqualTo("7");

        HttpResponse<String> param = get(running, "/v1/users/7/following/99");
        assertThat(param.statusCode()).isEqualTo(200);
        assertThat(json(param).path("params").path("targetUserId").asText()).isEqualTo("99");
    }

    @Test
    void missingPathParameterIs400NamingTheField() {
        HttpResponse<String> response = get(running, "/v1/missing-param/1");

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode body = json(response);
        assertThat(body.path("type").asText()).isEqualTo("https://pinfeed.dev/problems/invalid-field");
        assertThat(body.path("field").asText()).isEqualTo("other");
    }

    @Test
    void emptyResponseHasNoBody() {
        HttpResponse<String> response = get(running, "/v1/empty");

        assertThat(response.statusCode()).isEqualTo(204);
        assertThat(response.body()).isEmpty();
    }

    @Test
    void redundantSlashesAreIgnored() {
        assertThat(get(running, "//v1//items/").statusCode()).isEqualTo(200);
        assertThat(get(running, "/v1//items/").statusCode()).isEqualTo(200);
    }

    @Test
    void routesListApplicationRoutesThenBuiltIns() {
        assertThat(app.routes()).containsExactly(
                new RouteInfo("PUT", "/v1/users/{userId}/following/users/{targetUserId}"),
                new RouteInfo("DELETE", "/v1/users/{userId}/following/users/{targetUserId}"),
                new RouteInfo("POST", "/v1/users/{userId}/following/users:check"),
                new RouteInfo("GET", "/v1/users/{userId}/following/{targetUserId}"),
                new RouteInfo("GET", "/v1/items"),
                new RouteInfo("GET", "/v1/missing-param/{id}"),
                new RouteInfo("GET", "/v1/empty"),
                new RouteInfo("GET", "/health"),
                new RouteInfo("GET", "/health/live"),
                new RouteInfo("GET", "/health/ready"),
                new RouteInfo("GET", "/metrics"),
                new RouteInfo("GET", "/openapi.json"),
                new RouteInfo("GET", "/docs"),
                new RouteInfo("GET", "/docs/{file}"));
        assertThat(app.applicationRoutes()).hasSize(7).doesNotContain(new RouteInfo("GET", "/health"));
    }

    @Test
    void keepAliveConnectionServesSeveralRequests() throws Exception {
        try (TestHttp.RawConnection connection = new TestHttp.RawConnection(running.port())) {
            for (int i = 0; i < 3; i++) {
                connection.write("GET /v1/items?limit=" + i + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
                TestHttp.RawResponse response = connection.read();
                assertThat(response.status()).isEqualTo(200);
                assertThat(json(response.body()).path("limit").asText()).isEqualTo(String.valueOf(i));
            }
            // A rejected request with a small body is drained, so the connection stays usable.
            connection.write("POST /v1/nope HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 2\r\n\r\n{}");
            assertThat(connection.read().status()).isEqualTo(404);
            connection.write("GET /v1/items HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertThat(connection.read().status()).isEqualTo(200);
        }
    }

    @Test
    void defaultOptionsMakeNonGetRoutesAuthenticated() {
        assertThatThrownBy(() -> HttpApp.builder("x").route("POST", "/v1/things", r -> Response.empty(204)).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("POST /v1/things")
                .hasMessageContaining("authenticator");
        HttpApp reads = HttpApp.builder("x").route("get", "/v1/things", r -> Response.empty(204)).build();
        assertThat(reads.routes()).contains(new RouteInfo("GET", "/v1/things"));
        assertThat(RouteOptions.defaultFor("GET")).isEqualTo(RouteOptions.publicRead());
        assertThat(RouteOptions.defaultFor("DELETE")).isEqualTo(RouteOptions.authenticatedWrite(64 * 1024));
    }

    @Test
    void invalidRouteDefinitionsAreRejected() {
        Handler h = r -> Response.empty(204);
        assertThatThrownBy(() -> HttpApp.builder("x").route("GET", "/a/{id}", h).route("GET", "/a/{other}", h).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("duplicate route");
        assertThatThrownBy(() -> HttpApp.builder("x").route("GET", "/health", h))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("built-in");
        assertThatThrownBy(() -> HttpApp.builder("x").route("GET", "a/b", h))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HttpApp.builder("x").route("GET", "/a/x{id}", h))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("whole segment");
        assertThatThrownBy(() -> HttpApp.builder("x").route("GET", "/a/{id}/{id}", h))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("duplicate path parameter");
        assertThatThrownBy(() -> HttpApp.builder("x").route("GE T", "/a", h))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
