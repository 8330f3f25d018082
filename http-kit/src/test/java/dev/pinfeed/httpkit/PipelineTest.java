package dev.pinfeed.httpkit;

import static dev.pinfeed.httpkit.TestHttp.get;
import static dev.pinfeed.httpkit.TestHttp.json;
import static dev.pinfeed.httpkit.TestHttp.send;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Every rejection of the request pipeline, each a problem document that never reaches the handler. */
@Timeout(120) // a hang guard for a loaded box, not a timing
class PipelineTest {

    private static final String JSON = "application/json";
    private static final String[] AUTH = {"Authorization", "Bearer good", "Content-Type", JSON};

    private final AtomicInteger authenticatorCalls = new AtomicInteger();
    private final AtomicInteger handlerCalls = new AtomicInteger();
    private final CountDownLatch slowEntered = new CountDownLatch(2);
    private final CountDownLatch releaseSlow = new CountDownLatch(1);
    private RunningHttpApp running;

    @BeforeEach
    void start() {
        Authenticator authenticator = token -> {
            authenticatorCalls.incrementAndGet();
            if (!token.equals("good")) {
                throw new ProblemException(Problem.unauthorized("unknown token"));
            }
            return new Principal("alice", Set.of("events:write"));
        };
        running = HttpApp.builder("pipeline-test")
                .authenticator(authenticator)
                .maxInFlight(2)
                .handlerThreads(4)
                .route("POST", "/v1/echo", RouteOptions.authenticatedWrite(1024), r -> {
                    handlerCalls.incrementAndGet();
                    return Response.json(200, Map.of("principal", r.principal().name(),
                            "canWrite", r.principal().allows("events:write"), "json", r.json()));
                })
                .route("POST", "/v1/slow", r -> {
                    slowEntered.countDown();
                    releaseSlow.await(60, TimeUnit.SECONDS); // held until the test releases it; bounded for a failed test
                    return Response.json(200, Map.of("slow", true));
                })
                .route("GET", "/v1/boom", r -> {
                    throw new IllegalStateException("secret database password in a message");
                })
                .route("GET", "/v1/unserializable", r -> Response.json(200, new Object()))
                .route("GET", "/v1/conflict", r -> {
                    throw new ProblemException(Problem.conflict("already-following", "targetUserId", "already following 7"));
                })
                .build()
                .start("127.0.0.1", 0);
    }

    @AfterEach
    void stop() {
        releaseSlow.countDown();
        running.close();
    }

    @Test
    void authenticatedJsonRequestReachesTheHandler() {
        HttpResponse<String> response = send(running, "POST", "/v1/echo", "{\"a\":[1,2]}",
                "Authorization", "Bearer good", "Content-Type", "Application/JSON; charset=UTF-8");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = json(response);
        assertThat(body.path("principal").asText()).isEqualTo("alice");
        assertThat(body.path("canWrite").asBoolean()).isTrue();
        assertThat(body.path("json").toString()).isEqualTo("{\"a\":[1,2]}");
    }

    @Test
    void malformedJsonIs400WithAOneLineLocation() {
        JsonNode body = assertProblem(send(running, "POST", "/v1/echo", "{\"a\": tru\n}", AUTH), 400, "malformed-json");

        assertThat(body.path("title").asText()).isEqualTo("Malformed JSON");
        assertThat(body.path("detail").asText()).contains("line 1").doesNotContain("\n").doesNotContain("Source");
        assertThat(body.has("field")).isFalse();
    }

    @Test
    void trailingGarbageIs400() {
        assertProblem(send(running, "POST", "/v1/echo", "{\"a\":1} x", AUTH), 400, "malformed-json");
        JsonNode second = assertProblem(send(running, "POST", "/v1/echo", "{\"a\":1}{\"b\":2}", AUTH), 400, "malformed-json");
        assertThat(second.path("detail").asText()).containsIgnoringCase("trailing");
    }

    @Test
    void duplicateKeysAre400() {
        JsonNode body = assertProblem(send(running, "POST", "/v1/echo", "{\"a\":1,\"a\":2}", AUTH), 400, "malformed-json");

        assertThat(body.path("detail").asText()).contains("Duplicate field 'a'");
    }

    @Test
    void emptyBodyIs400WhenTheHandlerWantsJson() {
        assertProblem(send(running, "POST", "/v1/echo", "", AUTH), 400, "malformed-json");
    }

    @Test
    void missingBearerTokenIs401WithoutCallingTheAuthenticator() {
        HttpResponse<String> missing = send(running, "POST", "/v1/echo", "{}", "Content-Type", JSON);
        HttpResponse<String> basic = send(running, "POST", "/v1/echo", "{}", "Content-Type", JSON,
                "Authorization", "Basic YTpi");
        HttpResponse<String> empty = send(running, "POST", "/v1/echo", "{}", "Content-Type", JSON,
                "Authorization", "Bearer ");

        for (HttpResponse<String> response : List.of(missing, basic, empty)) {
            JsonNode body = assertProblem(response, 401, "unauthorized");
            assertThat(body.path("detail").asText()).isEqualTo("missing bearer token");
            assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
        }
        assertThat(authenticatorCalls).hasValue(0);
        assertThat(handlerCalls).hasValue(0);
    }

    @Test
    void rejectedTokenIs401FromTheAuthenticator() {
        HttpResponse<String> response = send(running, "POST", "/v1/echo", "{}", "Content-Type", JSON,
                "Authorization", "bearer bad");

        JsonNode body = assertProblem(response, 401, "unauthorized");
        assertThat(body.path("detail").asText()).isEqualTo("unknown token");
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
        assertThat(authenticatorCalls).hasValue(1);
        assertThat(handlerCalls).hasValue(0);
    }

    @Test
    void authComesBeforeTheBodyLimit() {
        assertProblem(send(running, "POST", "/v1/echo", "{\"x\":\"" + "y".repeat(2000) + "\"}", "Content-Type", JSON),
                401, "unauthorized");
    }

    @Test
    void bodyOverTheLimitIs413() {
        HttpResponse<String> response = send(running, "POST", "/v1/echo", "{\"x\":\"" + "y".repeat(2000) + "\"}", AUTH);

        JsonNode body = assertProblem(response, 413, "payload-too-large");
        assertThat(body.path("detail").asText()).contains("1024");
        assertThat(handlerCalls).hasValue(0);
    }

    @Test
    void bodyExactlyAtTheLimitIsAccepted() {
        String body = "{\"x\":\"" + "y".repeat(1024 - 8) + "\"}";
        assertThat(body).hasSize(1024);

        assertThat(send(running, "POST", "/v1/echo", body, AUTH).statusCode()).isEqualTo(200);
    }

    @Test
    void declaredContentLengthOverTheLimitIs413WithoutReadingTheBody() throws Exception {
        try (TestHttp.RawConnection connection = new TestHttp.RawConnection(running.port())) {
            // Ten megabytes announced, none sent: the answer must not wait for the body.
            connection.write("POST /v1/echo HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer good\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 10000000\r\n\r\n");
            TestHttp.RawResponse response = connection.read();

            assertThat(response.status()).isEqualTo(413);
            assertThat(response.header("Connection")).isEqualToIgnoringCase("close");
            assertThat(json(response.body()).path("type").asText()).isEqualTo("https://pinfeed.dev/problems/payload-too-large");
        }
        assertThat(handlerCalls).hasValue(0);
    }

    @Test
    void chunkedBodyOverTheLimitIs413WhileStillStreaming() throws Exception {
        try (TestHttp.RawConnection connection = new TestHttp.RawConnection(running.port())) {
            connection.write("POST /v1/echo HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer good\r\n"
                    + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
            String chunk = "x".repeat(400);
            for (int i = 0; i < 3; i++) {
                connection.write(Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n");
            }
            // No terminating chunk: 1200 bytes already exceed the 1024 limit, so the server answers now.
            TestHttp.RawResponse response = connection.read();

            assertThat(response.status()).isEqualTo(413);
            assertThat(json(response.body()).path("status").asInt()).isEqualTo(413);
        }
        assertThat(handlerCalls).hasValue(0);
    }

    @Test
    void nonJsonBodyIs415() {
        HttpResponse<String> text = send(running, "POST", "/v1/echo", "hello", "Authorization", "Bearer good",
                "Content-Type", "text/plain");
        HttpResponse<String> jsonish = send(running, "POST", "/v1/echo", "{}", "Authorization", "Bearer good",
                "Content-Type", "application/jsonx");

        assertThat(json(assertProblemResponse(text, 415)).path("detail").asText()).contains("text/plain");
        assertProblemResponse(jsonish, 415);
        assertThat(handlerCalls).hasValue(0);
    }

    @Test
    void shedRoutesAnswer429OnceMaxInFlightIsReached() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> blocked = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            blocked.add(TestHttp.sendAsync(running, "POST", "/v1/slow", "{}", AUTH));
        }
        assertThat(slowEntered.await(30, TimeUnit.SECONDS)).as("both slow requests in flight").isTrue();

        HttpResponse<String> shed = send(running, "POST", "/v1/echo", "{}", AUTH);
        JsonNode body = assertProblem(shed, 429, "too-many-requests");
        assertThat(body.path("title").asText()).isEqualTo("Too many requests");
        assertThat(shed.headers().firstValue("Retry-After")).hasValue("1");
        // Shedding precedes auth: no token still gets 429, and the authenticator is not asked.
        int authCalls = authenticatorCalls.get();
        assertThat(send(running, "POST", "/v1/echo", "{}", "Content-Type", JSON).statusCode()).isEqualTo(429);
        assertThat(authenticatorCalls).hasValue(authCalls);
        // Routes that do not shed are still served.
        assertThat(get(running, "/health").statusCode()).isEqualTo(200);

        releaseSlow.countDown();
        for (CompletableFuture<HttpResponse<String>> future : blocked) {
            assertThat(future.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        assertThat(send(running, "POST", "/v1/echo", "{}", AUTH).statusCode()).isEqualTo(200);
    }

    @Test
    void unexpectedHandlerExceptionIs500WithoutDetails() {
        HttpResponse<String> response = get(running, "/v1/boom");

        JsonNode body = assertProblem(response, 500, "internal-error");
        assertThat(response.body()).doesNotContain("secret").doesNotContain("IllegalStateException")
                .doesNotContain("at dev.pinfeed");
        assertThat(body.path("title").asText()).isEqualTo("Internal error");
    }

    @Test
    void unserializableResponseIs500() {
        assertProblem(get(running, "/v1/unserializable"), 500, "internal-error");
    }

    @Test
    void problemExceptionFromTheHandlerBecomesItsDocument() {
        JsonNode body = assertProblem(get(running, "/v1/conflict"), 409, "already-following");

        assertThat(body.path("title").asText()).isEqualTo("Conflict");
        assertThat(body.path("field").asText()).isEqualTo("targetUserId");
        assertThat(body.path("detail").asText()).isEqualTo("already following 7");
    }

    private static JsonNode assertProblem(HttpResponse<String> response, int status, String typeSlug) {
        JsonNode body = json(assertProblemResponse(response, status));
        assertThat(body.path("type").asText()).isEqualTo("https://pinfeed.dev/problems/" + typeSlug);
        return body;
    }

    private static HttpResponse<String> assertProblemResponse(HttpResponse<String> response, int status) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(json(response).path("status").asInt()).isEqualTo(status);
        return response;
    }
}
