package dev.pinfeed.httpkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Problem, Response, Request, Principal and RouteOptions without a server. */
class ValuesTest {

    private static String text(Response response) {
        return new String(response.bodyBytes(), StandardCharsets.UTF_8);
    }

    @Test
    void problemJsonOmitsNullFieldAndDetail() throws Exception {
        Problem withField = Problem.badRequest("userId", "must be positive");
        Problem without = new Problem("https://pinfeed.dev/problems/x", "X", 400, null, null);

        assertThat(text(Response.problem(withField))).isEqualTo("{\"type\":\"https://pinfeed.dev/problems/invalid-field\","
                + "\"title\":\"Invalid field\",\"status\":400,\"detail\":\"must be positive\",\"field\":\"userId\"}");
        assertThat(TestHttp.JSON.writeValueAsString(without))
                .isEqualTo("{\"type\":\"https://pinfeed.dev/problems/x\",\"title\":\"X\",\"status\":400}");
        assertThat(Json.MAPPER.writeValueAsString(Problem.unauthorized("nope"))).doesNotContain("field");
        assertThat(withField.toMap()).containsExactly(Map.entry("type", "https://pinfeed.dev/problems/invalid-field"),
                Map.entry("title", "Invalid field"), Map.entry("status", 400), Map.entry("detail", "must be positive"),
                Map.entry("field", "userId"));
        assertThat(Response.problem(withField).contentType()).isEqualTo("application/problem+json");
    }

    @Test
    void problemHelpersHaveTheirStatuses() {
        assertThat(Problem.unauthorized("d").status()).isEqualTo(401);
        assertThat(Problem.forbidden("d").status()).isEqualTo(403);
        assertThat(Problem.notFound("userId", "d").field()).isEqualTo("userId");
        assertThat(Problem.conflict("already-following", "f", "d").type()).isEqualTo("https://pinfeed.dev/problems/already-following");
        assertThat(Problem.conflict("https://example.com/p", "f", "d").type()).isEqualTo("https://example.com/p");
        assertThat(Problem.payloadTooLarge(10).status()).isEqualTo(413);
        assertThat(Problem.unsupportedMediaType(null).detail()).contains("none");
        assertThat(Problem.tooManyRequests("d").status()).isEqualTo(429);
        assertThat(Problem.serviceUnavailable("d").status()).isEqualTo(503);
        assertThat(Problem.internalError().status()).isEqualTo(500);
        assertThat(Response.problem(Problem.unauthorized("d")).headers()).containsEntry("WWW-Authenticate", "Bearer");
        assertThat(Response.problem(Problem.tooManyRequests("d")).headers()).containsEntry("retry-after", "1");
        assertThat(new ProblemException(Problem.forbidden("no")).problem().status()).isEqualTo(403);
        assertThat(new ProblemException(Problem.forbidden("no")).getStackTrace()).isEmpty();
        assertThatThrownBy(() -> new Problem("t", "t", 200, null, null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void jsonResponsesKeepExplicitNullsAndWriteInstantsAsText() {
        Map<String, Object> page = new HashMap<>();
        page.put("cursor", null);
        record Event(String id, Instant at) {
        }

        assertThat(text(Response.json(200, page))).isEqualTo("{\"cursor\":null}");
        assertThat(text(Response.json(201, new Event("e1", Instant.parse("2025-01-02T03:04:05Z")))))
                .isEqualTo("{\"id\":\"e1\",\"at\":\"2025-01-02T03:04:05Z\"}");
        assertThat(Response.json(200, page).contentType()).isEqualTo("application/json");
    }

    @Test
    void withHeaderReturnsACopy() {
        Response base = Response.empty(204);
        Response located = base.withHeader("Location", "/v1/x").withHeader("location", "/v1/y");

        assertThat(base.headers()).isEmpty();
        assertThat(located.headers()).containsOnly(Map.entry("Location", "/v1/y"));
        assertThat(base.contentType()).isNull();
        assertThat(Response.text(200, "text/plain", "hi").bodyBytes()).isEqualTo("hi".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> base.withHeader("X", "a\r\nb")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> base.withHeader("Content-Length", "3")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void requestBuilderForHandlerTests() {
        Request request = Request.builder("POST", "/v1/users/7/following/users:check")
                .routeTemplate("/v1/users/{userId}/following/users:check")
                .pathParam("userId", "7")
                .query("limit", "a b")
                .header("X-Trace", "t")
                .jsonBody("{\"ids\":[1]}")
                .principal(new Principal("svc", Set.of("*")))
                .build();

        assertThat(request.pathParam("userId")).isEqualTo("7");
        assertThat(request.query("limit")).hasValue("a b");
        assertThat(request.header("x-trace")).hasValue("t");
        assertThat(request.header("content-type")).hasValue("application/json");
        assertThat(request.json().path("ids").get(0).asInt()).isEqualTo(1);
        assertThat(request.hasBody()).isTrue();
        assertThat(request.principal().allows("anything")).isTrue();
        assertThatThrownBy(() -> request.pathParam("nope"))
                .isInstanceOfSatisfying(ProblemException.class, e -> {
                    assertThat(e.problem().status()).isEqualTo(400);
                    assertThat(e.problem().field()).isEqualTo("nope");
                });
    }

    @Test
    void jsonParsingIsStrict() {
        for (String body : new String[] {"", "  ", "{", "{\"a\":1}]", "[1] [2]", "{\"a\":1,\"a\":1}"}) {
            Request request = Request.builder("POST", "/x").jsonBody(body).build();
            assertThatThrownBy(request::json).as(body).isInstanceOfSatisfying(ProblemException.class, e -> {
                assertThat(e.problem().type()).isEqualTo("https://pinfeed.dev/problems/malformed-json");
                assertThat(e.problem().title()).isEqualTo("Malformed JSON");
                assertThat(e.problem().field()).isNull();
                assertThat(e.problem().detail()).doesNotContain("\n");
            });
        }
        assertThat(Request.builder("POST", "/x").jsonBody(" {\"a\":null} \n").build().json().path("a").isNull()).isTrue();
    }

    @Test
    void principalsAndRouteOptions() {
        Principal reader = new Principal("r", Set.of("feed:read"));
        assertThat(reader.allows("feed:read")).isTrue();
        assertThat(reader.allows("events:write")).isFalse();
        assertThat(new Principal("n", null).scopes()).isEmpty();

        assertThat(RouteOptions.publicRead()).isEqualTo(new RouteOptions(false, 0, false));
        assertThat(RouteOptions.authenticatedWrite(10)).isEqualTo(new RouteOptions(true, 10, true));
        assertThat(RouteOptions.authenticated()).isEqualTo(new RouteOptions(true, 64 * 1024, true));
        assertThatThrownBy(() -> new RouteOptions(false, -1, false)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void bearerTokenExtraction() {
        assertThat(Dispatcher.bearerToken("Bearer abc")).isEqualTo("abc");
        assertThat(Dispatcher.bearerToken("bearer  abc ")).isEqualTo("abc");
        assertThat(Dispatcher.bearerToken("Basic abc")).isNull();
        assertThat(Dispatcher.bearerToken("Bearer")).isNull();
        assertThat(Dispatcher.bearerToken("Bearerabc")).isNull();
        assertThat(Dispatcher.bearerToken(null)).isNull();
        assertThat(Dispatcher.isJson("application/json;charset=utf-8")).isTrue();
        assertThat(Dispatcher.isJson("APPLICATION/JSON")).isTrue();
        assertThat(Dispatcher.isJson("application/problem+json")).isFalse();
        assertThat(Dispatcher.isJson(null)).isFalse();
    }
}
