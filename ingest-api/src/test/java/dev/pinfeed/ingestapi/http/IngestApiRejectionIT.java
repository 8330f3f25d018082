package dev.pinfeed.ingestapi.http;

import static dev.pinfeed.ingestapi.http.IngestClient.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.pinfeed.httpkit.Principal;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.ingestapi.IngestApiServer;
import dev.pinfeed.ingestapi.IngestComponents;
import dev.pinfeed.ingestapi.http.IngestClient.Answer;
import dev.pinfeed.ingestapi.kafka.FreshTopics;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The table of bad requests, each with the exact status and field it gets, and the proof that
 * none of them published anything: this class's fresh topics hold only the setup events.
 */
@ExtendWith(StackExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class IngestApiRejectionIT {

    private static final String ALL = "rej-all-" + System.nanoTime();
    private static final String PINS_ONLY = "rej-pins-" + System.nanoTime();
    private static FreshTopics topics;
    private static IngestComponents components;
    private static RunningHttpApp running;
    private static IngestClient client;
    private static String user;
    private static String takenName;
    private static String board;
    private static String pin;

    @BeforeAll
    static void start(TestStack stack) throws Exception {
        topics = new FreshTopics(stack);
        components = new IngestComponents(stack.config(), topics.overrides(), stack.keyPrefix("ingest-rej"), new Properties());
        TokenAuthenticator tokens = new TokenAuthenticator(Map.of(
                TokenAuthenticator.sha256Hex(ALL), new Principal("all", Set.of("*")),
                TokenAuthenticator.sha256Hex(PINS_ONLY), new Principal("pins", Set.of("PinCreated"))));
        running = IngestApiServer.app(stack.config(), components, tokens).start("127.0.0.1", 0);
        client = new IngestClient(running.baseUri(), ALL);
        takenName = "t" + Long.toString(stack.freshId(), 36);
        user = client.post("/v1/users", json("{'username':'" + takenName + "'}")).text("id");
        board = client.post("/v1/boards", json("{'ownerId':'" + user + "','name':'b'}")).text("id");
        pin = client.post("/v1/pins", json("{'boardId':'" + board + "','authorId':'" + user + "','details':'d'}")).text("id");
    }

    @AfterAll
    static void stop() {
        if (running != null) running.close();
        if (components != null) components.close();
    }

    static Stream<Arguments> badRequests() {
        String reserved = Long.toString((1L << 62) | Long.parseLong(pin));
        String ghostUser = Long.toString(ShardedId.compose(3, ObjectType.USER, 1L << 34));
        StringBuilder hugeBatch = new StringBuilder("{\"events\":[");
        for (int i = 0; i < 1001; i++) hugeBatch.append(i == 0 ? "" : ",").append("{\"type\":\"PinLiked\"}");
        hugeBatch.append("]}");
        String big = json("{'boardId':'" + board + "','authorId':'" + user + "','details':'" + "x".repeat(70_000) + "'}");
        return Stream.of(
                arguments("malformed JSON", "POST", "/v1/pins", "{\"boardId\":", ALL, "application/json", 400, null),
                arguments("trailing garbage", "POST", "/v1/users", "{\"username\":\"abc\"} x", ALL, "application/json", 400, null),
                arguments("duplicate key", "POST", "/v1/users", "{\"username\":\"abc\",\"username\":\"abd\"}", ALL, "application/json", 400, null),
                arguments("not an object", "POST", "/v1/users", "[]", ALL, "application/json", 400, null),
                arguments("wrong type", "POST", "/v1/users", json("{'username':5}"), ALL, "application/json", 400, "username"),
                arguments("bad username", "POST", "/v1/users", json("{'username':'No Spaces'}"), ALL, "application/json", 400, "username"),
                arguments("unknown field", "POST", "/v1/boards", json("{'ownerId':'" + user + "','name':'b','colour':'red'}"), ALL,
                        "application/json", 400, "colour"),
                arguments("id of the wrong type", "POST", "/v1/pins", json("{'boardId':'" + user + "','authorId':'" + user
                        + "','details':'d'}"), ALL, "application/json", 400, "boardId"),
                arguments("reserved bits set", "DELETE", "/v1/pins/" + reserved, null, ALL, null, 400, "pinId"),
                arguments("id not decimal", "PUT", "/v1/users/abc/likes/" + pin, null, ALL, null, 400, "userId"),
                arguments("bad url", "POST", "/v1/pins", json("{'boardId':'" + board + "','authorId':'" + user
                        + "','details':'d','link':'javascript:alert(1)'}"), ALL, "application/json", 400, "link"),
                arguments("self follow", "PUT", "/v1/users/" + user + "/following/users/" + user, null, ALL, null, 400, "targetUserId"),
                arguments("reorder a pin twice", "PUT", "/v1/boards/" + board + "/order", json("{'pinIds':['" + pin + "','" + pin + "']}"),
                        ALL, "application/json", 400, "pinIds[1]"),
                arguments("unknown id", "POST", "/v1/boards", json("{'ownerId':'" + ghostUser + "','name':'b'}"), ALL,
                        "application/json", 404, "ownerId"),
                arguments("unknown pin", "PUT", "/v1/users/" + user + "/likes/" + ShardedId.compose(3, ObjectType.PIN, 1L << 34), null,
                        ALL, null, 404, "pinId"),
                arguments("comment too long", "POST", "/v1/pins/" + pin + "/comments", json("{'authorId':'" + user + "','text':'"
                        + "x".repeat(501) + "'}"), ALL, "application/json", 400, "text"),
                arguments("comment blank", "POST", "/v1/pins/" + pin + "/comments", json("{'authorId':'" + user + "','text':'  '}"), ALL,
                        "application/json", 400, "text"),
                arguments("comment on an unknown pin", "POST", "/v1/pins/" + ShardedId.compose(3, ObjectType.PIN, 1L << 34) + "/comments",
                        json("{'authorId':'" + user + "','text':'t'}"), ALL, "application/json", 404, "pinId"),
                arguments("comment by an unknown user", "POST", "/v1/pins/" + pin + "/comments", json("{'authorId':'" + ghostUser
                        + "','text':'t'}"), ALL, "application/json", 404, "authorId"),
                arguments("delete an unknown comment", "DELETE", "/v1/comments/" + ShardedId.compose(3, ObjectType.COMMENT, 1L << 34), null,
                        ALL, null, 404, "commentId"),
                arguments("username taken", "POST", "/v1/users", json("{'username':'" + takenName + "'}"), ALL, "application/json", 409,
                        "username"),
                arguments("oversize body", "POST", "/v1/pins", big, ALL, "application/json", 413, null),
                arguments("over 1000 events", "POST", "/v1/events", hugeBatch.toString(), ALL, "application/json", 413, "events"),
                arguments("empty batch", "POST", "/v1/events", json("{'events':[]}"), ALL, "application/json", 400, "events"),
                arguments("missing token", "POST", "/v1/users", json("{'username':'abc'}"), null, "application/json", 401, null),
                arguments("wrong token", "POST", "/v1/users", json("{'username':'abc'}"), "nope", "application/json", 401, null),
                arguments("token without the scope", "POST", "/v1/users", json("{'username':'abcdef'}"), PINS_ONLY, "application/json", 403,
                        null),
                arguments("wrong content type", "POST", "/v1/users", "username=abc", ALL, "application/x-www-form-urlencoded", 415, null),
                arguments("unknown route", "POST", "/v1/comments", json("{}"), ALL, "application/json", 404, null),
                arguments("wrong method", "PATCH", "/v1/pins/" + pin, json("{}"), ALL, "application/json", 405, null));
    }

    @Order(1)
    @ParameterizedTest(name = "{0} -> {6} {7}")
    @MethodSource("badRequests")
    void isRejectedWithAProblemDocument(String what, String method, String path, String body, String token, String contentType,
                                        int status, String field) {
        Answer a = client.as(token).send(method, path, body, contentType, Map.of());

        assertThat(a.status()).as(a.body()).isEqualTo(status);
        assertThat(a.contentType()).startsWith("application/problem+json");
        assertThat(a.json().get("status").asInt()).isEqualTo(status);
        assertThat(a.json().get("title").asText()).isNotBlank();
        assertThat(a.field()).isEqualTo(field);
        if (status == 401) assertThat(a.raw().headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
    }

    @Order(2)
    @Test
    void aBatchOfOnlyBadEventsIsAnsweredPerEventAndPublishesNothing() {
        Answer a = client.post("/v1/events", json("{'events':[{'type':'PinTeleported'},{'type':'PinLiked','userId':'" + user
                + "','pinId':'" + board + "'},{'type':'PinLiked','userId':'" + user + "'}]}"));

        assertThat(a.status()).isEqualTo(202);
        assertThat(a.json().get("accepted").asInt()).isZero();
        assertThat(a.json().get("results").findValuesAsText("field")).containsExactly("type", "pinId", "pinId");
    }

    @Order(3)
    @Test
    void nothingOfAnyRejectedRequestReachedKafka() {
        var events = topics.events(3, Duration.ofSeconds(20));
        assertThat(events).extracting(SpecificRecord::getClass).extracting(Class::getSimpleName)
                .containsExactlyInAnyOrder("UserCreated", "BoardCreated", "PinCreated");
    }
}
