package dev.pinfeed.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.config.HostPort;
import dev.pinfeed.console.pipeline.PipelineMonitor;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.JwtAuthenticator;
import dev.pinfeed.httpkit.JwtIssuer;
import dev.pinfeed.httpkit.JwtKeys;
import dev.pinfeed.httpkit.Meters;
import dev.pinfeed.httpkit.Principal;
import dev.pinfeed.httpkit.ReaderClaims;
import dev.pinfeed.httpkit.Response;
import dev.pinfeed.httpkit.RouteOptions;
import dev.pinfeed.httpkit.RunningHttpApp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's routes over stand-ins of feed-service and ingest-api (http-kit apps on free ports): sign-in, reads
 * passed on as they are, and writes passed on only for the signed-in user, with the console's producer token.
 */
class ConsoleAppTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ISSUER = "console-test";
    private static final long ADA = 1001L;
    private static final long BEN = 1002L;
    private static final long ADA_BOARD = 5001L;
    private static final long BEN_BOARD = 5002L;

    @TempDir Path dir;
    private final Clock clock = Clock.fixed(Instant.parse("2026-11-28T12:00:00Z"), ZoneOffset.UTC);
    private final String keys = JwtKeys.newPrivateSet("k1");
    private final JwtIssuer issuer = new JwtIssuer(keys, ISSUER, ReaderClaims.AUDIENCE, clock);
    private final List<String> ingested = new CopyOnWriteArrayList<>();
    private final List<String> feedCalls = new CopyOnWriteArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();
    private RunningHttpApp feed;
    private RunningHttpApp ingest;
    private RunningHttpApp console;

    @BeforeEach
    void start() throws Exception {
        feed = HttpApp.builder("fake-feed")
                .route("GET", "/v1/users/by-username/{username}", r -> switch (r.pathParam("username")) {
                    case "ada_0000" -> Response.json(200, Map.of("id", String.valueOf(ADA), "username", "ada_0000"));
                    default -> Response.json(404, Map.of("status", 404));
                })
                .route("GET", "/v1/users/{userId}", r -> Response.json(200, Map.of("id", r.pathParam("userId"), "username", "u" + r.pathParam("userId"))))
                .route("GET", "/v1/boards/{boardId}", r -> Response.json(200, Map.of("id", r.pathParam("boardId"),
                        "ownerId", r.pathParam("boardId").equals(String.valueOf(ADA_BOARD)) ? String.valueOf(ADA) : String.valueOf(BEN))))
                .route("GET", "/v1/users/{userId}/feed", r -> {
                    feedCalls.add(r.rawQuery() + " " + r.header("Authorization").orElse("-"));
                    return Response.json(200, Map.of("items", List.of(), "cursor", "next"));
                })
                .build().start("127.0.0.1", 0);
        ingest = HttpApp.builder("fake-ingest")
                .route("PUT", "/v1/users/{userId}/likes/{pinId}", new RouteOptions(false, 0, false), r -> ingestedAnswer(r.method() + " " + r.path(), r))
                .route("POST", "/v1/pins", new RouteOptions(false, 4096, false), r -> ingestedAnswer("POST /v1/pins " + new String(r.body()), r))
                .build().start("127.0.0.1", 0);
        Path jwks = Files.writeString(dir.resolve("jwks.json"), JwtKeys.publicSet(keys));
        Path privateKeys = Files.writeString(dir.resolve("private.json"), keys);
        ConsoleSettings settings = new ConsoleSettings(new HostPort("127.0.0.1", 1), feed.baseUri(), ingest.baseUri(), Optional.of("producer-secret"),
                ConsoleSettings.SignIn.DEV, Optional.of(privateKeys), List.of("ada_0000"), Duration.ofHours(1), jwks, ISSUER, ReaderClaims.AUDIENCE,
                Duration.ofSeconds(2), Map.of(), true);
        PipelineMonitor pipeline = new PipelineMonitor() {
            @Override public Object snapshot() { return Map.of("sampledAt", "now"); }
            @Override public void close() { }
        };
        console = ConsoleServer.app(settings, pipeline, Meters.newRegistry(), clock).start("127.0.0.1", 0);
    }

    private Response ingestedAnswer(String line, dev.pinfeed.httpkit.Request r) {
        ingested.add(line + " " + r.header("Authorization").orElse("-"));
        return Response.json(202, Map.of("eventId", "e1"));
    }

    @AfterEach
    void stop() {
        for (RunningHttpApp app : new RunningHttpApp[]{console, ingest, feed}) if (app != null) app.close();
    }

    @Test
    void signsInADevUserByNameWithAReaderTokenFeedServiceAccepts() throws Exception {
        HttpResponse<String> r = send("POST", "/api/session", "{\"username\":\"ada_0000\"}", null);
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode answer = JSON.readTree(r.body());
        assertThat(answer.path("user").path("id").asText()).isEqualTo(String.valueOf(ADA));
        Principal reader = JwtAuthenticator.of(JwtKeys.publicSet(keys), ISSUER, ReaderClaims.AUDIENCE, clock).authenticate(answer.path("token").asText());
        assertThat(ReaderClaims.userOf(reader)).hasValue(ADA);
        assertThat(answer.path("expiresAt").asText()).isEqualTo("2026-11-28T13:00:00Z");
    }

    @Test
    void unknownOrMalformedUsernamesAreProblemsNamingTheField() throws Exception {
        HttpResponse<String> unknown = send("POST", "/api/session", "{\"username\":\"nobody_here\"}", null);
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(unknown.body()).path("field").asText()).isEqualTo("username");
        HttpResponse<String> malformed = send("POST", "/api/session", "{\"username\":\"Ada Lovelace\"}", null);
        assertThat(malformed.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(malformed.body()).path("field").asText()).isEqualTo("username");
    }

    @Test
    void readsPassToFeedServiceWithTheirQueryAndToken() throws Exception {
        String token = ReaderClaims.userToken(issuer, ADA, Duration.ofMinutes(5));
        HttpResponse<String> r = send("GET", "/api/read/v1/users/" + ADA + "/feed?limit=25&cursor=abc", null, token);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(r.body()).path("cursor").asText()).isEqualTo("next");
        assertThat(feedCalls).containsExactly("limit=25&cursor=abc Bearer " + token);
    }

    @Test
    void writesPassToIngestWithTheConsolesProducerTokenOnlyForTheSignedInUser() throws Exception {
        String ada = ReaderClaims.userToken(issuer, ADA, Duration.ofMinutes(5));
        assertThat(send("PUT", "/api/write/v1/users/" + ADA + "/likes/77", null, ada).statusCode()).isEqualTo(202);
        assertThat(ingested).containsExactly("PUT /v1/users/" + ADA + "/likes/77 Bearer producer-secret");

        HttpResponse<String> forOther = send("PUT", "/api/write/v1/users/" + BEN + "/likes/77", null, ada);
        assertThat(forOther.statusCode()).isEqualTo(403);
        assertThat(send("PUT", "/api/write/v1/users/" + ADA + "/likes/77", null, null).statusCode()).isEqualTo(401);
        String service = ReaderClaims.serviceToken(issuer, "reports", Duration.ofMinutes(5));
        assertThat(send("PUT", "/api/write/v1/users/" + ADA + "/likes/77", null, service).statusCode()).isEqualTo(403);
        assertThat(ingested).hasSize(1);
    }

    @Test
    void aPinGoesOnlyOntoTheSignedInUsersOwnBoard() throws Exception {
        String ada = ReaderClaims.userToken(issuer, ADA, Duration.ofMinutes(5));
        String own = "{\"boardId\":\"" + ADA_BOARD + "\",\"authorId\":\"" + ADA + "\",\"details\":\"hello\"}";
        assertThat(send("POST", "/api/write/v1/pins", own, ada).statusCode()).isEqualTo(202);
        String others = "{\"boardId\":\"" + BEN_BOARD + "\",\"authorId\":\"" + ADA + "\",\"details\":\"hello\"}";
        assertThat(send("POST", "/api/write/v1/pins", others, ada).statusCode()).isEqualTo(403);
        String asBen = "{\"boardId\":\"" + ADA_BOARD + "\",\"authorId\":\"" + BEN + "\",\"details\":\"hello\"}";
        HttpResponse<String> r = send("POST", "/api/write/v1/pins", asBen, ada);
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.body()).contains("authorId");
        assertThat(ingested).hasSize(1);
    }

    @Test
    void aServiceThatCannotBeReachedIsA503NamingIt() throws Exception {
        ingest.close();
        String ada = ReaderClaims.userToken(issuer, ADA, Duration.ofMinutes(5));
        HttpResponse<String> r = send("PUT", "/api/write/v1/users/" + ADA + "/likes/77", null, ada);
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(JSON.readTree(r.body()).path("detail").asText()).contains("ingest-api");
    }

    @Test
    void thePipelinesStateIsForReadersWithATokenUnlessOpened() throws Exception {
        assertThat(send("GET", "/api/pipeline", null, null).statusCode()).isEqualTo(401);
        HttpResponse<String> r = send("GET", "/api/pipeline", null, ReaderClaims.userToken(issuer, ADA, Duration.ofMinutes(5)));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(r.body()).path("sampledAt").asText()).isEqualTo("now");
    }

    @Test
    void servesItsWebFilesAndNothingElse() throws Exception {
        HttpResponse<String> index = send("GET", "/", null, null);
        assertThat(index.statusCode()).isEqualTo(200);
        assertThat(index.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
        assertThat(send("GET", "/web/index.html", null, null).statusCode()).isEqualTo(200);
        assertThat(send("GET", "/web/nothing.js", null, null).statusCode()).isEqualTo(404);
        assertThat(send("GET", "/web/..%2Fpipeline%2FPipelineMonitor.class", null, null).statusCode()).isEqualTo(404);
        assertThat(send("GET", "/web/index.exe", null, null).statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(send("GET", "/api/config", null, null).body()).path("signIn").asText()).isEqualTo("dev");
    }

    private HttpResponse<String> send(String method, String path, String body, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(console.baseUri() + path)).timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) b.header("Content-Type", "application/json");
        if (token != null) b.header("Authorization", "Bearer " + token);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
