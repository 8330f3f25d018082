package dev.pinfeed.ingestapi.http;

import static dev.pinfeed.ingestapi.http.IngestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.events.CommentCreated;
import dev.pinfeed.events.CommentDeleted;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.UserCreated;
import dev.pinfeed.httpkit.Principal;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.ingestapi.core.IngestRejection;
import dev.pinfeed.ingestapi.fakes.FakeIngest;
import dev.pinfeed.ingestapi.http.IngestClient.Answer;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * ingest-api's HTTP layer through real HTTP, over the in-memory fakes: the batch path, scopes, the
 * idempotency path and the failure classes (503 naming a store that is down, 500 for a bug).
 */
class IngestHttpApiTest {

    private static final String ALL = "all-secret";
    private static final String PINS_ONLY = "pins-secret";

    private final FakeIngest ingest = new FakeIngest(InstantSource.fixed(Instant.parse("2026-11-22T10:00:00Z")));
    private RunningHttpApp running;
    private IngestClient client;

    @BeforeEach
    void start() {
        TokenAuthenticator tokens = new TokenAuthenticator(Map.of(
                TokenAuthenticator.sha256Hex(ALL), new Principal("all", Set.of("*")),
                TokenAuthenticator.sha256Hex(PINS_ONLY), new Principal("pins", Set.of("PinCreated"))));
        running = ingest.app(tokens).start("127.0.0.1", 0);
        client = new IngestClient(running.baseUri(), ALL);
    }

    @AfterEach
    void stop() {
        running.close();
    }

    private String user(String name) {
        Answer a = client.post("/v1/users", json("{'username':'" + name + "'}"));
        assertThat(a.status()).as(a.body()).isEqualTo(202);
        return a.text("id");
    }

    private String board(String owner) {
        Answer a = client.post("/v1/boards", json("{'ownerId':'" + owner + "','name':'b'}"));
        assertThat(a.status()).as(a.body()).isEqualTo(202);
        return a.text("id");
    }

    private String pin(String board, String author) {
        Answer a = client.post("/v1/pins", json("{'boardId':'" + board + "','authorId':'" + author + "','details':'d'}"));
        assertThat(a.status()).as(a.body()).isEqualTo(202);
        return a.text("id");
    }

    private static String pinEvent(String board, String author, String details) {
        return "{'type':'PinCreated','boardId':'" + board + "','authorId':'" + author + "','details':'" + details + "'}";
    }

    private List<String> publishedPinDetails() {
        return ingest.publisher.published(PinCreated.class).stream().map(p -> p.getDetails().toString()).toList();
    }

    private Answer keyed(String method, String path, String body, String key) {
        return client.send(method, path, body, "application/json", Map.of("Idempotency-Key", key));
    }

    @Test
    void aBatchAnswersPerEventParseErrorsNextToValidEventsAndPublishesOnlyTheAccepted() {
        String ana = user("ana");
        String board = board(ana);
        String ghostBoard = Long.toString(ShardedId.compose(7, ObjectType.BOARD, 1L << 34));

        Answer a = client.post("/v1/events", json("{'events':[" + pinEvent(board, ana, "one") + ","
                + pinEvent(ana, ana, "wrong id type") + "," + pinEvent(ghostBoard, ana, "unknown board") + ","
                + "{'type':'Teleported','userId':'" + ana + "'}," + "{'type':'PinCreated','boardId':'" + board + "'},"
                + pinEvent(board, ana, "two") + "]}"));

        assertThat(a.status()).as(a.body()).isEqualTo(202);
        assertThat(a.json().get("accepted").asInt()).isEqualTo(2);
        assertThat(a.json().get("rejected").asInt()).isEqualTo(4);
        JsonNode results = a.json().get("results");
        assertThat(results).extracting(r -> r.get("status").asText())
                .containsExactly("accepted", "rejected", "rejected", "rejected", "rejected", "accepted");
        assertThat(results.get(0).get("ids").get("id").asText()).matches("[0-9]+");
        assertThat(results.get(1).get("error").get("status").asInt()).isEqualTo(400);
        assertThat(results.get(1).get("error").get("field").asText()).isEqualTo("boardId");
        assertThat(results.get(2).get("error").get("status").asInt()).isEqualTo(404);
        assertThat(results.get(3).get("error").get("field").asText()).isEqualTo("type");
        assertThat(results.get(4).get("error").get("field").asText()).isEqualTo("authorId");
        assertThat(publishedPinDetails()).containsExactly("one", "two");
    }

    @Test
    void aDeletedPinIs409PinDeletedNamingTheFieldAloneAndPerEventInABatch() {
        String ana = user("dee");
        String board = board(ana);
        String pin = pin(board, ana);
        String other = pin(board, ana);
        assertThat(client.delete("/v1/pins/" + pin).status()).isEqualTo(202);

        Answer like = client.put("/v1/users/" + ana + "/likes/" + pin);
        Answer reorder = client.send("PUT", "/v1/boards/" + board + "/order", json("{'pinIds':['" + other + "','" + pin + "']}"));
        Answer comment = client.post("/v1/pins/" + pin + "/comments", json("{'authorId':'" + ana + "','text':'too late'}"));
        Answer again = client.delete("/v1/pins/" + pin);
        Answer batch = client.post("/v1/events", json("{'events':[{'type':'PinLiked','userId':'" + ana + "','pinId':'" + pin + "'},"
                + "{'type':'PinLiked','userId':'" + ana + "','pinId':'" + other + "'}]}"));

        assertThat(like.status()).as(like.body()).isEqualTo(409);
        assertThat(like.contentType()).startsWith("application/problem+json");
        assertThat(like.text("type")).isEqualTo("https://pinfeed.dev/problems/pin-deleted");
        assertThat(like.field()).isEqualTo("pinId");
        assertThat(comment.status()).as(comment.body()).isEqualTo(409);
        assertThat(comment.field()).isEqualTo("pinId");
        assertThat(reorder.status()).isEqualTo(409);
        assertThat(reorder.field()).isEqualTo("pinIds[1]");
        assertThat(again.status()).as("a repeated delete").isEqualTo(202);
        assertThat(again.text("eventId")).matches("[0-9]+");
        JsonNode results = batch.json().get("results");
        assertThat(batch.json().get("accepted").asInt()).isEqualTo(1);
        assertThat(results.get(0).get("error").get("status").asInt()).isEqualTo(409);
        assertThat(results.get(0).get("error").get("type").asText()).isEqualTo("https://pinfeed.dev/problems/pin-deleted");
        assertThat(results.get(0).get("error").get("field").asText()).isEqualTo("pinId");
        assertThat(results.get(1).get("status").asText()).isEqualTo("accepted");
        assertThat(ingest.publisher.published(dev.pinfeed.events.PinLiked.class)).extracting(l -> Long.toString(l.getPinId()))
                .containsExactly(other);
    }

    @Test
    void aCommentIsCreatedOnItsPinAndDeletedAndBadOrUnknownInputIsAProblemNamingTheFieldThatPublishesNothing() {
        String ana = user("cara");
        String board = board(ana);
        Answer pinned = client.post("/v1/pins", json("{'boardId':'" + board + "','authorId':'" + ana + "','details':'d'}"));
        String pin = pinned.text("id");
        String ghostPin = Long.toString(ShardedId.compose(7, ObjectType.PIN, 1L << 34));
        String ghostUser = Long.toString(ShardedId.compose(7, ObjectType.USER, 1L << 34));

        Answer created = client.post("/v1/pins/" + pin + "/comments", json("{'authorId':'" + ana + "','text':'so good'}"));
        assertThat(created.status()).as(created.body()).isEqualTo(202);
        String comment = created.text("id");
        assertThat(ShardedId.parse(comment).type()).isEqualTo(ObjectType.COMMENT);
        assertThat(ShardedId.parse(comment).shard()).as("on the pin's shard").isEqualTo(ShardedId.parse(pin).shard());
        assertThat(created.text("eventId")).matches("[0-9]+");

        record Refused(Answer answer, int status, String field) {}
        List<Refused> refused = List.of(
                new Refused(client.post("/v1/pins/" + pin + "/comments", json("{'authorId':'" + ana + "','text':'" + "x".repeat(501) + "'}")),
                        400, "text"),
                new Refused(client.post("/v1/pins/" + pin + "/comments", json("{'authorId':'" + ana + "','text':' '}")), 400, "text"),
                new Refused(client.post("/v1/pins/" + pin + "/comments", json("{'authorId':'" + ana + "'}")), 400, "text"),
                new Refused(client.post("/v1/pins/" + board + "/comments", json("{'authorId':'" + ana + "','text':'t'}")), 400, "pinId"),
                new Refused(client.post("/v1/pins/" + ghostPin + "/comments", json("{'authorId':'" + ana + "','text':'t'}")), 404, "pinId"),
                new Refused(client.post("/v1/pins/" + pin + "/comments", json("{'authorId':'" + ghostUser + "','text':'t'}")), 404, "authorId"),
                new Refused(client.delete("/v1/comments/" + pin), 400, "commentId"),
                new Refused(client.delete("/v1/comments/" + ShardedId.compose(7, ObjectType.COMMENT, 1L << 34)), 404, "commentId"));
        for (Refused r : refused) {
            assertThat(r.answer().status()).as(r.answer().body()).isEqualTo(r.status());
            assertThat(r.answer().json().get("field").asText()).as(r.answer().body()).isEqualTo(r.field());
        }
        assertThat(ingest.publisher.published(CommentCreated.class)).hasSize(1);

        for (int i = 0; i < 2; i++) {
            Answer deleted = client.delete("/v1/comments/" + comment);
            assertThat(deleted.status()).as(deleted.body()).isEqualTo(202);
            assertThat(deleted.json().has("id")).isFalse();
        }
        assertThat(ingest.publisher.published(CommentDeleted.class)).hasSize(2)
                .allSatisfy(d -> assertThat(d.getPinId()).isEqualTo(Long.parseLong(pin)));

        Answer batch = client.post("/v1/events", json("{'events':[{'type':'CommentCreated','pinId':'" + pin + "','authorId':'" + ana
                + "','text':'batched'},{'type':'CommentDeleted','commentId':'" + comment + "'}]}"));
        assertThat(batch.json().get("accepted").asInt()).as(batch.body()).isEqualTo(2);
        assertThat(ingest.publisher.published(CommentCreated.class)).extracting(CommentCreated::getText).containsExactly("so good", "batched");
    }

    @Test
    void aTokenWithoutTheScopeIsRefusedPerEventAndPerRequest() {
        String ana = user("bea");
        String board = board(ana);
        IngestClient pinsOnly = client.as(PINS_ONLY);

        Answer batch = pinsOnly.post("/v1/events", json("{'events':[{'type':'BoardCreated','ownerId':'" + ana + "','name':'x'},"
                + pinEvent(board, ana, "allowed") + "]}"));
        Answer single = pinsOnly.put("/v1/users/" + ana + "/following/boards/" + board);

        assertThat(batch.json().get("results").get(0).get("error").get("status").asInt()).isEqualTo(403);
        assertThat(batch.json().get("results").get(0).get("error").get("detail").asText()).contains("BoardCreated");
        assertThat(batch.json().get("results").get(1).get("status").asText()).isEqualTo("accepted");
        assertThat(single.status()).isEqualTo(403);
        assertThat(publishedPinDetails()).containsExactly("allowed");
    }

    @Test
    void moreThan1000EventsAre413AndNothingIsPublished() {
        String ana = user("cleo");
        String board = board(ana);
        StringBuilder events = new StringBuilder("{\"events\":[");
        for (int i = 0; i < 1001; i++) events.append(i == 0 ? "" : ",").append(json(pinEvent(board, ana, "p" + i)));

        Answer a = client.post("/v1/events", events.append("]}").toString());

        assertThat(a.status()).isEqualTo(413);
        assertThat(a.field()).isEqualTo("events");
        assertThat(publishedPinDetails()).isEmpty();
    }

    @Test
    void anEventKafkaCannotTakeStopsTheRestOfTheBatch() {
        String ana = user("dora");
        String board = board(ana);
        ingest.publisher.failWith = e -> e instanceof PinCreated p && p.getDetails().toString().equals("three")
                ? new IngestRejection(IngestRejection.Reason.OVERLOADED, null, "buffer full") : null;

        Answer a = client.post("/v1/events", json("{'events':[" + pinEvent(board, ana, "one") + "," + pinEvent(board, ana, "two") + ","
                + pinEvent(board, ana, "three") + "," + pinEvent(board, ana, "four") + "," + pinEvent(board, ana, "five") + "]}"));

        assertThat(a.json().get("results")).extracting(r -> r.get("status").asText())
                .containsExactly("accepted", "accepted", "rejected", "rejected", "rejected");
        for (int i = 2; i < 5; i++) assertThat(a.json().get("results").get(i).get("error").get("status").asInt()).isEqualTo(429);
        assertThat(publishedPinDetails()).containsExactly("one", "two");
    }

    @Test
    void theSameKeyTwicePublishesOnceAndReplaysTheAnswer() {
        String ana = user("edda");
        String body = json("{'boardId':'" + board(ana) + "','authorId':'" + ana + "','details':'once'}");

        Answer first = keyed("POST", "/v1/pins", body, "k-1");
        Answer second = keyed("POST", "/v1/pins", body, "k-1");

        assertThat(first.status()).isEqualTo(202);
        assertThat(first.raw().headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(second.status()).isEqualTo(202);
        assertThat(second.text("id")).isEqualTo(first.text("id"));
        assertThat(second.text("eventId")).isEqualTo(first.text("eventId"));
        assertThat(second.raw().headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(publishedPinDetails()).containsExactly("once");
    }

    @Test
    void whileTheFirstRequestRunsTheSameKeyIs409AndAnotherBodyIs422() throws Exception {
        String ana = user("fay");
        String board = board(ana);
        CountDownLatch publishing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ingest.publisher.failWith = e -> {
            if (e instanceof PinCreated p && p.getDetails().toString().equals("slow")) {
                publishing.countDown();
                awaitQuietly(release);
            }
            return null;
        };
        String body = json("{'boardId':'" + board + "','authorId':'" + ana + "','details':'slow'}");
        CompletableFuture<Answer> first = CompletableFuture.supplyAsync(() -> keyed("POST", "/v1/pins", body, "k-2"));
        assertThat(publishing.await(30, TimeUnit.SECONDS)).as("the first request reached the publisher").isTrue();

        Answer loser = keyed("POST", "/v1/pins", body, "k-2");
        release.countDown();
        Answer winner = first.get(30, TimeUnit.SECONDS);
        Answer other = keyed("POST", "/v1/pins", body.replace("slow", "other"), "k-2");

        assertThat(loser.status()).isEqualTo(409);
        assertThat(loser.field()).isEqualTo("Idempotency-Key");
        assertThat(loser.json().get("type").asText()).isEqualTo(IngestHttpApi.IN_PROGRESS_TYPE);
        assertThat(winner.status()).isEqualTo(202);
        assertThat(other.status()).isEqualTo(422);
        assertThat(other.field()).isEqualTo("Idempotency-Key");
        assertThat(publishedPinDetails()).containsExactly("slow");
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aStoreDownBeforePublishingIs503NamingItAndIsNotStoredSoARetryRuns() {
        ingest.directory.failRegister = new StoreUnavailableException("mysql001", "connection refused");
        String body = json("{'username':'gina'}");

        Answer down = keyed("POST", "/v1/users", body, "k-3");
        ingest.directory.failRegister = null;
        Answer retry = keyed("POST", "/v1/users", body, "k-3");

        assertThat(down.status()).isEqualTo(503);
        assertThat(down.json().get("store").asText()).isEqualTo("mysql001");
        assertThat(down.raw().headers().firstValue("Retry-After")).hasValue("1");
        assertThat(retry.status()).as(retry.body()).isEqualTo(202);
        assertThat(retry.raw().headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(ingest.publisher.published(UserCreated.class)).hasSize(1);
    }

    @Test
    void anUnconfirmedPublishIsStoredSoARetryDoesNotPublishAgain() {
        ingest.publisher.failWith = e -> e instanceof UserCreated ? new TimeoutException("no ack") : null;
        String body = json("{'username':'hedy'}");

        Answer unconfirmed = keyed("POST", "/v1/users", body, "k-4");
        ingest.publisher.failWith = e -> null;
        Answer retry = keyed("POST", "/v1/users", body, "k-4");

        assertThat(unconfirmed.status()).isEqualTo(503);
        assertThat(unconfirmed.json().get("type").asText()).isEqualTo(IngestHttpApi.UNCONFIRMED_TYPE);
        assertThat(retry.status()).isEqualTo(503);
        assertThat(retry.raw().headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(ingest.publisher.published(UserCreated.class)).isEmpty();
        // The ids it was published with, first and on the replay: the producer can look the user up later.
        assertThat(unconfirmed.json().get("id").asText()).matches("[1-9][0-9]*");
        assertThat(unconfirmed.json().get("eventId").asText()).matches("[1-9][0-9]*");
        assertThat(retry.json().get("id").asText()).isEqualTo(unconfirmed.json().get("id").asText());
        assertThat(retry.json().get("eventId").asText()).isEqualTo(unconfirmed.json().get("eventId").asText());
    }

    @Test
    void aBugInAnAdapterIs500AndItsKeyIsReleased() {
        ingest.directory.failRegister = new NullPointerException("a bug");
        String body = json("{'username':'ines'}");

        Answer bug = keyed("POST", "/v1/users", body, "k-5");
        ingest.directory.failRegister = null;
        Answer retry = keyed("POST", "/v1/users", body, "k-5");

        assertThat(bug.status()).isEqualTo(500);
        assertThat(bug.json().has("store")).isFalse();
        assertThat(bug.body()).doesNotContain("a bug");
        assertThat(retry.status()).as(retry.body()).isEqualTo(202);
        assertThat(ingest.usernames.find("ines")).isPresent();
    }

    @Test
    void theIdempotencyStoreDownIs503NamingIt() {
        ingest.idempotency.failWith = new StoreUnavailableException("redis", "connection refused");

        Answer a = keyed("POST", "/v1/users", json("{'username':'jana'}"), "k-6");
        Answer unkeyed = client.post("/v1/users", json("{'username':'jana'}"));

        assertThat(a.status()).isEqualTo(503);
        assertThat(a.json().get("store").asText()).isEqualTo("redis");
        assertThat(unkeyed.status()).as("requests without a key do not need it").isEqualTo(202);
        assertThat(ingest.publisher.published(UserCreated.class)).hasSize(1);
    }
}
