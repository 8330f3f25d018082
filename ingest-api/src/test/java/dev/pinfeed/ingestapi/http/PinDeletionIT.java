package dev.pinfeed.ingestapi.http;

import static dev.pinfeed.ingestapi.http.IngestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pinfeed.events.BoardPinsReordered;
import dev.pinfeed.events.PinDeleted;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.httpkit.Principal;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.ingestapi.IngestApiServer;
import dev.pinfeed.ingestapi.IngestComponents;
import dev.pinfeed.ingestapi.http.IngestClient.Answer;
import dev.pinfeed.ingestapi.kafka.FreshTopics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Soft delete at ingest, end to end on the real stores: a deleted pin (recorded in the MySQL directory)
 * refuses likes and reorders with 409 {@code pin-deleted} naming the field, alone and per event in a
 * batch; deleting it again is 202; and nothing refused reached this class's fresh topics.
 */
@ExtendWith(StackExtension.class)
class PinDeletionIT {

    private static final String TOKEN = "del-" + System.nanoTime();
    private static FreshTopics topics;
    private static IngestComponents components;
    private static RunningHttpApp running;
    private static IngestClient client;
    private static TestStack stack;

    @BeforeAll
    static void start(TestStack testStack) throws Exception {
        stack = testStack;
        topics = new FreshTopics(stack);
        components = new IngestComponents(stack.config(), topics.overrides(), stack.keyPrefix("ingest-del"), new Properties());
        TokenAuthenticator tokens = new TokenAuthenticator(Map.of(TokenAuthenticator.sha256Hex(TOKEN), new Principal("all", Set.of("*"))));
        running = IngestApiServer.app(stack.config(), components, tokens).start("127.0.0.1", 0);
        client = new IngestClient(running.baseUri(), TOKEN);
    }

    @AfterAll
    static void stop() {
        if (running != null) running.close();
        if (components != null) components.close();
    }

    private static String created(Answer a) {
        assertThat(a.status()).as(a.body()).isEqualTo(202);
        return a.text("id");
    }

    private static void isPinDeleted(Answer a, String field) {
        assertThat(a.status()).as(a.body()).isEqualTo(409);
        assertThat(a.contentType()).startsWith("application/problem+json");
        assertThat(a.text("type")).isEqualTo(IngestHttpApi.PIN_DELETED_TYPE);
        assertThat(a.field()).isEqualTo(field);
    }

    @Test
    void aDeletedPinRefusesLikesAndReordersDeletesAgainAndPublishesNothingRefused() {
        String author = created(client.post("/v1/users", json("{'username':'d" + Long.toString(stack.freshId(), 36) + "'}")));
        String fan = created(client.post("/v1/users", json("{'username':'f" + Long.toString(stack.freshId(), 36) + "'}")));
        String board = created(client.post("/v1/boards", json("{'ownerId':'" + author + "','name':'b'}")));
        String pin = created(client.post("/v1/pins", json("{'boardId':'" + board + "','authorId':'" + author + "','details':'gone'}")));
        String kept = created(client.post("/v1/pins", json("{'boardId':'" + board + "','authorId':'" + author + "','details':'kept'}")));

        Answer deleted = client.delete("/v1/pins/" + pin);
        assertThat(deleted.status()).as(deleted.body()).isEqualTo(202);

        isPinDeleted(client.put("/v1/users/" + fan + "/likes/" + pin), "pinId");
        isPinDeleted(client.send("PUT", "/v1/boards/" + board + "/order", json("{'pinIds':['" + kept + "','" + pin + "']}")), "pinIds[1]");
        Answer again = client.delete("/v1/pins/" + pin);
        assertThat(again.status()).as(again.body()).isEqualTo(202);
        assertThat(again.text("eventId")).isNotEqualTo(deleted.text("eventId"));
        Answer unlike = client.delete("/v1/users/" + fan + "/likes/" + pin);
        assertThat(unlike.status()).as("withdrawing a like is allowed: " + unlike.body()).isEqualTo(202);

        Answer batch = client.post("/v1/events", json("{'events':["
                + "{'type':'PinLiked','userId':'" + fan + "','pinId':'" + pin + "'},"
                + "{'type':'PinLiked','userId':'" + fan + "','pinId':'" + kept + "'}]}"));
        assertThat(batch.status()).as(batch.body()).isEqualTo(202);
        assertThat(batch.json().get("accepted").asInt()).isEqualTo(1);
        assertThat(batch.json().get("rejected").asInt()).isEqualTo(1);
        JsonNode refused = batch.json().get("results").get(0);
        assertThat(refused.get("status").asText()).isEqualTo("rejected");
        assertThat(refused.get("error").get("status").asInt()).isEqualTo(409);
        assertThat(refused.get("error").get("type").asText()).isEqualTo(IngestHttpApi.PIN_DELETED_TYPE);
        assertThat(refused.get("error").get("field").asText()).isEqualTo("pinId");
        assertThat(batch.json().get("results").get(1).get("status").asText()).isEqualTo("accepted");

        // The accepted like of the kept pin is the witness: read until it is there, then nothing refused may be.
        long pinId = Long.parseLong(pin);
        long keptId = Long.parseLong(kept);
        List<ConsumerRecord<String, SpecificRecord>> records = topics.records(9, Duration.ofSeconds(30)); // 2 users, board, 2 pins, 2 deletes, unlike, like
        List<PinLiked> likes = records.stream().filter(r -> r.topic().equals(topics.topic(EventTopics.LIKES)))
                .map(ConsumerRecord::value).filter(PinLiked.class::isInstance).map(PinLiked.class::cast).toList();
        assertThat(likes).extracting(PinLiked::getPinId).as("the witness arrived, the refused like did not").containsExactly(keptId);
        List<SpecificRecord> events = records.stream().map(ConsumerRecord::value).toList();
        assertThat(events).filteredOn(BoardPinsReordered.class::isInstance).isEmpty();
        assertThat(events).filteredOn(PinDeleted.class::isInstance).extracting(e -> ((PinDeleted) e).getPinId())
                .as("a repeated delete publishes again").containsExactly(pinId, pinId);
    }
}
