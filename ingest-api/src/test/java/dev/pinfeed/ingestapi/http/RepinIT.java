package dev.pinfeed.ingestapi.http;

import static dev.pinfeed.ingestapi.http.IngestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pinfeed.canonicalstore.CanonicalChange;
import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.canonicalstore.CanonicalLayout.Json;
import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalWriter;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.httpkit.Principal;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.ingestapi.IngestApiServer;
import dev.pinfeed.ingestapi.IngestComponents;
import dev.pinfeed.ingestapi.http.IngestClient.Answer;
import dev.pinfeed.ingestapi.kafka.FreshTopics;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Repins at ingest, end to end on the real stores: POST /v1/pins/{pinId}/repins and a typed PinCreated with
 * parentPinId publish a PinCreated on the repinner's board that names its parent and carries the parent's content
 * from the canonical store; a board of someone else is 400 naming boardId; a deleted parent is 409 pin-deleted
 * naming pinId (parentPinId in a batch); nothing refused reaches this class's fresh topics.
 */
@ExtendWith(StackExtension.class)
class RepinIT {

    private static final String TOKEN = "repin-" + System.nanoTime();
    private static FreshTopics topics;
    private static IngestComponents components;
    private static RunningHttpApp running;
    private static IngestClient client;
    private static TestStack stack;
    private static ShardDataSources sources;
    private static ShardedDb db;

    @BeforeAll
    static void start(TestStack testStack) throws Exception {
        stack = testStack;
        topics = new FreshTopics(stack);
        components = new IngestComponents(stack.config(), topics.overrides(), stack.keyPrefix("ingest-repin"), new Properties());
        TokenAuthenticator tokens = new TokenAuthenticator(Map.of(TokenAuthenticator.sha256Hex(TOKEN), new Principal("all", Set.of("*"))));
        running = IngestApiServer.app(stack.config(), components, tokens).start("127.0.0.1", 0);
        client = new IngestClient(running.baseUri(), TOKEN);
        sources = ShardDataSources.from(stack.config(), "repin-it", 2);
        db = new ShardedDb(sources);
    }

    @AfterAll
    static void stop() {
        if (running != null) running.close();
        if (components != null) components.close();
        if (db != null) db.close();
        if (sources != null) sources.close();
    }

    private static String created(Answer a) {
        assertThat(a.status()).as(a.body()).isEqualTo(202);
        return a.text("id");
    }

    @Test
    void aRepinIsAPinCreatedOnTheRepinnersBoardWithItsParentAndContentAndADeletedParentIsRefused() {
        String author = created(client.post("/v1/users", json("{'username':'r" + Long.toString(stack.freshId(), 36) + "'}")));
        String saver = created(client.post("/v1/users", json("{'username':'s" + Long.toString(stack.freshId(), 36) + "'}")));
        String authorsBoard = created(client.post("/v1/boards", json("{'ownerId':'" + author + "','name':'a'}")));
        String saversBoard = created(client.post("/v1/boards", json("{'ownerId':'" + saver + "','name':'s'}")));
        String parent = created(client.post("/v1/pins", json("{'boardId':'" + authorsBoard + "','authorId':'" + author
                + "','details':'oak table','link':'https://example.com/t','imageUrl':'https://img.example.com/t.jpg'}")));
        // What the materializer writes for the parent (none runs here): the content a repin copies.
        long p = Long.parseLong(parent);
        try (MysqlCanonicalWriter writer = new MysqlCanonicalWriter(db)) {
            List<CanonicalChange> row = List.of(new CanonicalChange.PutObject(CanonicalLayout.PINS, p,
                    Json.pin(p, 1_000, Long.parseLong(authorsBoard), Long.parseLong(author), "oak table", "https://example.com/t",
                            "https://img.example.com/t.jpg"), 1_000));
            assertThat(writer.apply(row).failedHosts()).isEmpty();
        }

        Answer elsewhere = client.post("/v1/pins/" + parent + "/repins", json("{'boardId':'" + authorsBoard + "','authorId':'" + saver + "'}"));
        assertThat(elsewhere.status()).as(elsewhere.body()).isEqualTo(400);
        assertThat(elsewhere.field()).isEqualTo("boardId");
        Answer unknownField = client.post("/v1/pins/" + parent + "/repins",
                json("{'boardId':'" + saversBoard + "','authorId':'" + saver + "','details':'x'}"));
        assertThat(unknownField.status()).isEqualTo(400);
        assertThat(unknownField.field()).isEqualTo("details");

        String repin = created(client.post("/v1/pins/" + parent + "/repins", json("{'boardId':'" + saversBoard + "','authorId':'" + saver + "'}")));
        Answer typed = client.post("/v1/events", json("{'events':[{'type':'PinCreated','parentPinId':'" + parent + "','boardId':'"
                + saversBoard + "','authorId':'" + saver + "'}]}"));
        assertThat(typed.status()).as(typed.body()).isEqualTo(202);
        assertThat(typed.json().get("accepted").asInt()).isEqualTo(1);

        assertThat(client.delete("/v1/pins/" + parent).status()).isEqualTo(202);
        Answer ofDeleted = client.post("/v1/pins/" + parent + "/repins", json("{'boardId':'" + saversBoard + "','authorId':'" + saver + "'}"));
        assertThat(ofDeleted.status()).as(ofDeleted.body()).isEqualTo(409);
        assertThat(ofDeleted.text("type")).isEqualTo(IngestHttpApi.PIN_DELETED_TYPE);
        assertThat(ofDeleted.field()).isEqualTo("pinId");
        Answer batch = client.post("/v1/events", json("{'events':[{'type':'PinCreated','parentPinId':'" + parent + "','boardId':'"
                + saversBoard + "','authorId':'" + saver + "'}]}"));
        JsonNode refused = batch.json().get("results").get(0);
        assertThat(refused.get("error").get("status").asInt()).isEqualTo(409);
        assertThat(refused.get("error").get("field").asText()).isEqualTo("parentPinId");
        // A repin of a repin is a repin too: its parent is the pin it was saved from.
        String ofRepin = created(client.post("/v1/pins/" + repin + "/repins", json("{'boardId':'" + authorsBoard + "','authorId':'" + author + "'}")));

        // 2 users, 2 boards, the parent, 2 repins, the delete, the repin of the repin.
        List<SpecificRecord> events = topics.events(9, Duration.ofSeconds(30));
        List<PinCreated> repins = events.stream().filter(PinCreated.class::isInstance).map(PinCreated.class::cast)
                .filter(c -> c.getParentPinId() != null).toList();
        assertThat(repins).hasSize(3);
        PinCreated first = repins.stream().filter(c -> c.getPinId() == Long.parseLong(repin)).findFirst().orElseThrow();
        assertThat(first.getParentPinId()).isEqualTo(p);
        assertThat(first.getBoardId()).isEqualTo(Long.parseLong(saversBoard));
        assertThat(first.getAuthorId()).isEqualTo(Long.parseLong(saver));
        assertThat(first.getDetails()).isEqualTo("oak table");
        assertThat(first.getLink()).isEqualTo("https://example.com/t");
        assertThat(first.getImageUrl()).isEqualTo("https://img.example.com/t.jpg");
        assertThat(repins).filteredOn(c -> c.getPinId() == Long.parseLong(ofRepin)).singleElement()
                .satisfies(c -> assertThat(c.getParentPinId()).isEqualTo(Long.parseLong(repin)));
        assertThat(events.stream().filter(PinCreated.class::isInstance).count()).as("nothing refused was published").isEqualTo(4);
    }
}
