package dev.pinfeed.ingestapi.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.Problem;
import dev.pinfeed.httpkit.Request;
import dev.pinfeed.httpkit.Response;
import dev.pinfeed.httpkit.RouteOptions;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.ingestapi.client.PinfeedHttpClient.BatchResult;
import dev.pinfeed.ingestapi.core.IngestCommand;
import dev.pinfeed.ingestapi.http.IngestHttpApi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The thin client against a stub ingest-api (an http-kit app answering from a script), with injected clock, sleeper and random. */
class PinfeedHttpClientTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long USER = ShardedId.compose(1, ObjectType.USER, 11);
    private static final long OTHER_USER = ShardedId.compose(2, ObjectType.USER, 12);
    private static final long BOARD = ShardedId.compose(1, ObjectType.BOARD, 21);
    private static final long PIN = ShardedId.compose(1, ObjectType.PIN, 31);
    private static final long PIN_2 = ShardedId.compose(1, ObjectType.PIN, 32);

    /** Answers in order; once used up, 202 {"id":"7","eventId":"8"}. */
    private final Deque<Supplier<Response>> script = new ConcurrentLinkedDeque<>();
    private final List<Request> seen = new CopyOnWriteArrayList<>();
    private final List<Long> sleeps = new CopyOnWriteArrayList<>();
    private final AtomicLong nowMillis = new AtomicLong(1_000_000);
    private RunningHttpApp stub;

    @BeforeEach
    void startStub() {
        RouteOptions open = new RouteOptions(false, 4L * 1024 * 1024, false);
        HttpApp.Builder app = HttpApp.builder("stub-ingest");
        for (String[] route : new String[][] {{"POST", "/v1/users"}, {"POST", "/v1/boards"}, {"POST", "/v1/pins"},
                {"DELETE", "/v1/pins/{pinId}"}, {"PUT", "/v1/users/{u}/following/users/{t}"}, {"DELETE", "/v1/users/{u}/following/users/{t}"},
                {"PUT", "/v1/users/{u}/following/boards/{b}"}, {"DELETE", "/v1/users/{u}/following/boards/{b}"},
                {"PUT", "/v1/users/{u}/likes/{p}"}, {"DELETE", "/v1/users/{u}/likes/{p}"}, {"PUT", "/v1/boards/{b}/order"},
                {"POST", "/v1/pins/{p}/comments"}, {"DELETE", "/v1/comments/{c}"}, {"POST", "/v1/events"}}) {
            app.route(route[0], route[1], open, request -> {
                seen.add(request);
                Supplier<Response> next = script.poll();
                return next != null ? next.get() : Response.json(202, Map.of("id", "7", "eventId", "8"));
            });
        }
        stub = app.build().start("127.0.0.1", 0);
    }

    @AfterEach
    void stopStub() {
        stub.close();
    }

    private PinfeedHttpClient.Builder builder() {
        return PinfeedHttpClient.builder(stub.baseUri(), "tok").maxAttempts(4).backoff(Duration.ofMillis(100), Duration.ofSeconds(5))
                .retryBudget(Duration.ofSeconds(60)).clock(() -> Instant.ofEpochMilli(nowMillis.get()))
                .sleeper(millis -> {
                    sleeps.add(millis);
                    nowMillis.addAndGet(millis);
                })
                .random(new SplittableRandom(42));
    }

    private PinfeedHttpClient client() {
        return builder().build();
    }

    private static JsonNode body(Request r) throws IOException {
        return JSON.readTree(r.body());
    }

    private String key(int i) {
        return seen.get(i).header("Idempotency-Key").orElseThrow();
    }

    @Test
    void everyWriteGoesToItsContractRouteWithTheTokenAndReturnsItsIds() throws Exception {
        PinfeedHttpClient client = client();

        assertThat(client.createUser("ana", "Ana")).isEqualTo(7);
        assertThat(client.createBoard(USER, "Recipes", null)).isEqualTo(7);
        assertThat(client.createPin(BOARD, USER, "Nice", "https://example.com/p", null)).isEqualTo(7);
        assertThat(client.deletePin(PIN)).isEqualTo(8);
        client.followUser(USER, OTHER_USER);
        client.unfollowUser(USER, OTHER_USER);
        client.followBoard(OTHER_USER, BOARD);
        client.unfollowBoard(OTHER_USER, BOARD);
        client.likePin(OTHER_USER, PIN);
        client.unlikePin(OTHER_USER, PIN);
        assertThat(client.reorderBoardPins(BOARD, List.of(PIN_2, PIN))).isEqualTo(8);
        assertThat(client.createComment(PIN, OTHER_USER, "Lovely")).isEqualTo(7);
        long comment = ShardedId.compose(1, ObjectType.COMMENT, 41);
        assertThat(client.deleteComment(comment)).isEqualTo(8);

        assertThat(seen).extracting(r -> r.method() + " " + r.path()).containsExactly(
                "POST /v1/users", "POST /v1/boards", "POST /v1/pins", "DELETE /v1/pins/" + PIN,
                "PUT /v1/users/" + USER + "/following/users/" + OTHER_USER, "DELETE /v1/users/" + USER + "/following/users/" + OTHER_USER,
                "PUT /v1/users/" + OTHER_USER + "/following/boards/" + BOARD, "DELETE /v1/users/" + OTHER_USER + "/following/boards/" + BOARD,
                "PUT /v1/users/" + OTHER_USER + "/likes/" + PIN, "DELETE /v1/users/" + OTHER_USER + "/likes/" + PIN,
                "PUT /v1/boards/" + BOARD + "/order", "POST /v1/pins/" + PIN + "/comments", "DELETE /v1/comments/" + comment);
        assertThat(body(seen.get(0))).isEqualTo(JSON.readTree("{\"username\":\"ana\",\"displayName\":\"Ana\"}"));
        assertThat(body(seen.get(1))).isEqualTo(JSON.readTree("{\"ownerId\":\"" + USER + "\",\"name\":\"Recipes\"}"));
        assertThat(body(seen.get(2))).isEqualTo(JSON.readTree("{\"boardId\":\"" + BOARD + "\",\"authorId\":\"" + USER
                + "\",\"details\":\"Nice\",\"link\":\"https://example.com/p\"}"));
        assertThat(seen.get(3).hasBody()).isFalse();
        assertThat(body(seen.get(10))).isEqualTo(JSON.readTree("{\"pinIds\":[\"" + PIN_2 + "\",\"" + PIN + "\"]}"));
        assertThat(body(seen.get(11))).as("the pin is in the path").isEqualTo(JSON.readTree("{\"authorId\":\"" + OTHER_USER + "\",\"text\":\"Lovely\"}"));
        assertThat(seen.get(12).hasBody()).isFalse();
        assertThat(seen).allSatisfy(r -> assertThat(r.header("Authorization")).hasValue("Bearer tok"));
        assertThat(seen).extracting(r -> r.header("Idempotency-Key").orElseThrow()).doesNotHaveDuplicates()
                .allSatisfy(k -> assertThat(k).matches("[0-9a-f-]{36}"));
        assertThat(sleeps).isEmpty();
    }

    @Test
    void anInvalidCommandFailsBeforeAnyRequest() {
        assertThatThrownBy(() -> client().createUser("Not Valid", null)).hasMessageContaining("username");
        assertThat(seen).isEmpty();
    }

    @Test
    void aProblemDocumentBecomesATypedExceptionAndIsNotRetried() {
        script.add(() -> Response.problem(Problem.conflict("username-taken", "username", "username 'ana' is taken")));

        assertThatThrownBy(() -> client().createUser("ana", null)).isInstanceOfSatisfying(PinfeedApiException.class, e -> {
            assertThat(e.status()).isEqualTo(409);
            assertThat(e.type()).isEqualTo(Problem.TYPE_BASE + "username-taken");
            assertThat(e.field()).isEqualTo("username");
            assertThat(e.detail()).isEqualTo("username 'ana' is taken");
        });
        assertThat(seen).hasSize(1);
        assertThat(sleeps).isEmpty();
    }

    @Test
    void overloadAndOutagesAreRetriedUnderOneKeyWithJitteredBackoffAndRetryAfter() {
        script.add(() -> Response.problem(Problem.serviceUnavailable("mysql001 is unavailable"), Map.of("store", "mysql001")));
        script.add(() -> Response.problem(Problem.serviceUnavailable("redis is unavailable")));
        script.add(() -> Response.problem(Problem.tooManyRequests("shed"))); // with Retry-After: 1

        assertThat(client().createUser("ana", null)).isEqualTo(7);

        assertThat(seen).hasSize(4);
        assertThat(List.of(key(1), key(2), key(3))).containsOnly(key(0));
        assertThat(sleeps).hasSize(3);
        assertThat(sleeps.get(0)).isBetween(50L, 100L);
        assertThat(sleeps.get(1)).isBetween(100L, 200L);
        assertThat(sleeps.get(2)).as("Retry-After is the floor").isEqualTo(1000L);
    }

    @Test
    void theJitterComesFromTheInjectedRandom() {
        PinfeedHttpClient a = builder().random(new SplittableRandom(1)).build();
        PinfeedHttpClient b = builder().random(new SplittableRandom(1)).build();
        List<Long> fromA = new ArrayList<>();
        List<Long> fromB = new ArrayList<>();
        for (int attempt = 1; attempt <= 8; attempt++) {
            fromA.add(a.backoffMillis(attempt));
            fromB.add(b.backoffMillis(attempt));
        }
        assertThat(fromA).isEqualTo(fromB);
        assertThat(fromA.get(7)).isBetween(2500L, 5000L); // capped at maxBackoff
        assertThat(fromA).as("not a fixed sequence").doesNotHaveDuplicates();
    }

    @Test
    void anUnconfirmedPublishIsNotRetried() {
        script.add(() -> Response.problem(new Problem(IngestHttpApi.UNCONFIRMED_TYPE, "Publish unconfirmed", 503, "no ack", null)));

        assertThatThrownBy(() -> client().createUser("ana", null)).isInstanceOfSatisfying(PinfeedApiException.class,
                e -> assertThat(e.type()).isEqualTo(IngestHttpApi.UNCONFIRMED_TYPE));
        assertThat(seen).hasSize(1);
    }

    @Test
    void itGivesUpAfterMaxAttemptsWithTheLastProblem() {
        for (int i = 0; i < 10; i++) script.add(() -> Response.problem(Problem.serviceUnavailable("down")));

        assertThatThrownBy(() -> client().likePin(USER, PIN)).isInstanceOfSatisfying(PinfeedApiException.class,
                e -> assertThat(e.status()).isEqualTo(503));
        assertThat(seen).hasSize(4);
        assertThat(sleeps).hasSize(3);
    }

    @Test
    void noRetryStartsAfterTheRetryBudget() {
        for (int i = 0; i < 10; i++) script.add(() -> Response.problem(Problem.tooManyRequests("shed")));
        PinfeedHttpClient client = builder().maxAttempts(100).retryBudget(Duration.ofMillis(2500)).build();

        assertThatThrownBy(() -> client.likePin(USER, PIN)).isInstanceOf(PinfeedApiException.class);
        assertThat(seen).as("Retry-After 1 s each: attempts at 0, 1 and 2 s").hasSize(3);
    }

    @Test
    void aLostAnswerAndAnAttemptStillRunningAreRetriedUnderTheSameKey() {
        AtomicInteger calls = new AtomicInteger();
        HttpClient http = HttpClient.newHttpClient();
        PinfeedHttpClient client = builder().transport(request -> {
            HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (calls.incrementAndGet() == 1) throw new IOException("connection reset (the answer was lost)");
            return answer;
        }).build();
        script.add(() -> Response.json(202, Map.of("id", "41", "eventId", "42")));
        script.add(() -> Response.problem(Problem.conflict(IngestHttpApi.IN_PROGRESS_TYPE, "Idempotency-Key", "still running")));
        script.add(() -> Response.json(202, Map.of("id", "41", "eventId", "42")).withHeader("Idempotent-Replayed", "true"));

        assertThat(client.createBoard(USER, "b", null)).isEqualTo(41);
        assertThat(seen).hasSize(3);
        assertThat(List.of(key(1), key(2))).containsOnly(key(0));
    }

    @Test
    void transportFailuresThatOutlastTheRetriesThrowUncheckedIo() {
        PinfeedHttpClient client = builder().maxAttempts(2).transport(request -> {
            throw new IOException("connection refused");
        }).build();

        assertThatThrownBy(() -> client.deletePin(PIN)).isInstanceOf(UncheckedIOException.class).hasMessageContaining("connection refused");
        assertThat(sleeps).hasSize(1);
    }

    @Test
    void aBatchIsAnsweredPerCommandAndRetriedOnlyWhileNothingWasAcceptedAndAllFailuresWereTransient() throws Exception {
        Map<String, Object> shed = Map.of("status", "rejected", "error", Problem.tooManyRequests("buffer full").toMap());
        script.add(() -> Response.json(202, Map.of("accepted", 0, "rejected", 2, "results", List.of(shed, shed))));
        script.add(() -> Response.json(202, Map.of("accepted", 1, "rejected", 1, "results", List.of(
                Map.of("status", "accepted", "ids", Map.of("id", "51", "eventId", "52")),
                Map.of("status", "rejected", "error", Problem.notFound("boardId", "board 9 names no known board").toMap())))));

        List<BatchResult> results = client().submitBatch(List.of(new IngestCommand.CreatePin(BOARD, USER, "a", null, null),
                new IngestCommand.LikePin(USER, PIN)));

        assertThat(seen).hasSize(2);
        assertThat(key(1)).isEqualTo(key(0));
        assertThat(body(seen.get(0)).get("events").get(1))
                .isEqualTo(JSON.readTree("{\"type\":\"PinLiked\",\"userId\":\"" + USER + "\",\"pinId\":\"" + PIN + "\"}"));
        assertThat(results.get(0).accepted()).isTrue();
        assertThat(results.get(0).written().id()).isEqualTo(51);
        assertThat(results.get(1).error().status()).isEqualTo(404);
        assertThat(results.get(1).error().field()).isEqualTo("boardId");
    }
}
