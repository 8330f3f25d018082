package dev.pinfeed.ingestapi.http;

import static dev.pinfeed.ingestapi.http.IngestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.events.BoardCreated;
import dev.pinfeed.events.BoardFollowed;
import dev.pinfeed.events.BoardPinsReordered;
import dev.pinfeed.events.BoardUnfollowed;
import dev.pinfeed.events.CommentCreated;
import dev.pinfeed.events.CommentDeleted;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinDeleted;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.events.PinUnliked;
import dev.pinfeed.events.UserCreated;
import dev.pinfeed.events.UserFollowed;
import dev.pinfeed.events.UserUnfollowed;
import dev.pinfeed.httpkit.Principal;
import dev.pinfeed.httpkit.RouteInfo;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.ingestapi.IngestApiServer;
import dev.pinfeed.ingestapi.IngestComponents;
import dev.pinfeed.ingestapi.http.IngestClient.Answer;
import dev.pinfeed.ingestapi.kafka.FreshTopics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The write side of the contract end to end: HTTP → validation → ids → MySQL directory and
 * username index → Kafka, read back from the topics. Each test class publishes to its own fresh
 * topics, so "nothing else reached Kafka" is checkable.
 */
@ExtendWith(StackExtension.class)
class IngestApiIT {

    static final String ALL = "tok-all-" + System.nanoTime();
    static final String PINS_ONLY = "tok-pins-" + System.nanoTime();
    private static final ObjectMapper JSON = new ObjectMapper();

    private static TestStack stack;
    private static FreshTopics topics;
    private static IngestComponents components;
    private static HttpApp app;
    private static RunningHttpApp running;
    private static IngestClient client;

    @BeforeAll
    static void start(TestStack testStack) throws Exception {
        stack = testStack;
        topics = new FreshTopics(stack);
        components = new IngestComponents(stack.config(), topics.overrides(), stack.keyPrefix("ingest"), new Properties());
        TokenAuthenticator tokens = new TokenAuthenticator(Map.of(
                TokenAuthenticator.sha256Hex(ALL), new Principal("all", Set.of("*")),
                TokenAuthenticator.sha256Hex(PINS_ONLY), new Principal("pins", Set.of("PinCreated"))));
        app = IngestApiServer.app(stack.config(), components, tokens);
        components.bindMetrics(app.meterRegistry()); // as IngestApiServer.main does with the process registry
        running = app.start("127.0.0.1", 0);
        client = new IngestClient(running.baseUri(), ALL);
    }

    @AfterAll
    static void stop() {
        if (running != null) running.close();
        if (components != null) components.close();
    }

    static String username() {
        return "u" + Long.toString(stack.freshId(), 36);
    }

    static String createUser(String name) {
        Answer a = client.post("/v1/users", json("{'username':'" + name + "','displayName':'Name " + name + "'}"));
        assertThat(a.status()).as(a.body()).isEqualTo(202);
        return a.text("id");
    }

    static String createBoard(String owner) {
        Answer a = client.post("/v1/boards", json("{'ownerId':'" + owner + "','name':'Board','description':'about'}"));
        assertThat(a.status()).as(a.body()).isEqualTo(202);
        return a.text("id");
    }

    static String createPin(String board, String author) {
        Answer a = client.post("/v1/pins", json("{'boardId':'" + board + "','authorId':'" + author
                + "','details':'Nice','link':'https://example.com/p','imageUrl':'https://img.example.com/p.jpg'}"));
        assertThat(a.status()).as(a.body()).isEqualTo(202);
        return a.text("id");
    }

    private static <T extends SpecificRecord> List<T> ofType(List<SpecificRecord> events, Class<T> type) {
        return events.stream().filter(type::isInstance).map(type::cast).toList();
    }

    @Test
    void everyWriteEndpointPublishesItsEventOnceToItsTopicAndKey() throws Exception {
        FreshTopics mine = topics;
        String ana = createUser(username());
        String ben = createUser(username());
        String board = createBoard(ana);
        String pin = createPin(board, ana);
        String pin2 = createPin(board, ben);
        assertThat(ShardedId.decode(Long.parseLong(board)).type()).isEqualTo(ObjectType.BOARD);
        assertThat(ShardedId.decode(Long.parseLong(board)).shard()).isEqualTo(ShardedId.decode(Long.parseLong(ana)).shard());

        List<Answer> changes = List.of(
                client.put("/v1/users/" + ben + "/following/users/" + ana),
                client.delete("/v1/users/" + ben + "/following/users/" + ana),
                client.put("/v1/users/" + ben + "/following/boards/" + board),
                client.delete("/v1/users/" + ben + "/following/boards/" + board),
                client.put("/v1/users/" + ben + "/likes/" + pin),
                client.delete("/v1/users/" + ben + "/likes/" + pin),
                client.send("PUT", "/v1/boards/" + board + "/order", json("{'pinIds':['" + pin2 + "','" + pin + "']}")),
                client.delete("/v1/pins/" + pin2));
        for (Answer a : changes) {
            assertThat(a.status()).as(a.body()).isEqualTo(202);
            assertThat(a.json().get("eventId").isTextual()).isTrue();
        }
        Answer commented = client.post("/v1/pins/" + pin + "/comments", json("{'authorId':'" + ben + "','text':'Lovely'}"));
        assertThat(commented.status()).as(commented.body()).isEqualTo(202);
        String comment = commented.text("id");
        assertThat(ShardedId.decode(Long.parseLong(comment)).shard()).isEqualTo(ShardedId.decode(Long.parseLong(pin)).shard());
        Answer uncommented = client.delete("/v1/comments/" + comment);
        assertThat(uncommented.status()).as(uncommented.body()).isEqualTo(202);

        // Other tests of this class publish to the same topics: keep the events about this test's users.
        Set<Long> mineIds = Set.of(Long.parseLong(ana), Long.parseLong(ben));
        List<ConsumerRecord<String, SpecificRecord>> records = mine.records(15, Duration.ofSeconds(30)).stream()
                .filter(r -> involves(r.value(), mineIds)).toList();
        List<SpecificRecord> events = records.stream().map(ConsumerRecord::value).toList();
        assertThat(events).hasSize(15);
        assertThat(ofType(events, UserCreated.class)).hasSize(2);
        assertThat(ofType(events, BoardCreated.class)).singleElement().satisfies(b -> {
            assertThat(b.getOwnerId()).isEqualTo(Long.parseLong(ana));
            assertThat(b.getDescription()).isEqualTo("about");
        });
        assertThat(ofType(events, PinCreated.class)).hasSize(2);
        assertThat(ofType(events, UserFollowed.class)).singleElement().satisfies(f -> {
            assertThat(f.getFollowerId()).isEqualTo(Long.parseLong(ben));
            assertThat(f.getFolloweeId()).isEqualTo(Long.parseLong(ana));
        });
        assertThat(ofType(events, UserUnfollowed.class)).hasSize(1);
        assertThat(ofType(events, BoardFollowed.class)).singleElement()
                .satisfies(f -> assertThat(f.getBoardOwnerId()).isEqualTo(Long.parseLong(ana)));
        assertThat(ofType(events, BoardUnfollowed.class)).hasSize(1);
        assertThat(ofType(events, PinLiked.class)).hasSize(1);
        assertThat(ofType(events, PinUnliked.class)).hasSize(1);
        assertThat(ofType(events, BoardPinsReordered.class)).singleElement()
                .satisfies(r -> assertThat(r.getPinIds()).containsExactly(Long.parseLong(pin2), Long.parseLong(pin)));
        assertThat(ofType(events, PinDeleted.class)).singleElement().satisfies(d -> {
            assertThat(d.getBoardId()).isEqualTo(Long.parseLong(board));
            assertThat(d.getAuthorId()).isEqualTo(Long.parseLong(ben));
        });
        assertThat(ofType(events, CommentCreated.class)).singleElement().satisfies(c -> {
            assertThat(c.getCommentId()).isEqualTo(Long.parseLong(comment));
            assertThat(c.getPinId()).isEqualTo(Long.parseLong(pin));
            assertThat(c.getText()).isEqualTo("Lovely");
        });
        assertThat(ofType(events, CommentDeleted.class)).singleElement().satisfies(d -> {
            assertThat(d.getPinId()).isEqualTo(Long.parseLong(pin));
            assertThat(d.getAuthorId()).isEqualTo(Long.parseLong(ben));
        });
        for (ConsumerRecord<String, SpecificRecord> r : records) {
            String standard = EventTopics.topicFor(r.value());
            assertThat(r.topic()).isEqualTo(mine.topic(standard));
            assertThat(r.key()).isEqualTo(EventTopics.partitionKey(r.value()));
        }
    }

    /** True when any long field of {@code event} (actor, ids) is one of {@code ids}. */
    private static boolean involves(SpecificRecord event, Set<Long> ids) {
        for (org.apache.avro.Schema.Field f : event.getSchema().getFields()) {
            if (f.name().equals("eventId")) continue;
            if (event.get(f.pos()) instanceof Long value && ids.contains(value)) return true;
        }
        return false;
    }

    @Test
    void theBatchEndpointAnswersPerEventAndPublishesOnlyTheAccepted() throws Exception {
        String ana = createUser(username());
        String board = createBoard(ana);
        String ghostBoard = Long.toString(ShardedId.compose(7, ObjectType.BOARD, 1L << 34));
        String body = json("{'events':["
                + "{'type':'PinCreated','boardId':'" + board + "','authorId':'" + ana + "','details':'one'},"
                + "{'type':'PinCreated','boardId':'" + ana + "','authorId':'" + ana + "','details':'wrong id type'},"
                + "{'type':'PinCreated','boardId':'" + ghostBoard + "','authorId':'" + ana + "','details':'unknown board'},"
                + "{'type':'Teleported','userId':'" + ana + "'},"
                + "{'type':'PinCreated','boardId':'" + board + "','authorId':'" + ana + "','details':'two'}]}");

        Answer a = client.post("/v1/events", body);

        assertThat(a.status()).as(a.body()).isEqualTo(202);
        JsonNode results = a.json().get("results");
        assertThat(results).hasSize(5);
        assertThat(a.json().get("accepted").asInt()).isEqualTo(2);
        assertThat(results.get(0).get("status").asText()).isEqualTo("accepted");
        assertThat(results.get(0).get("ids").get("id").asText()).matches("[0-9]+");
        assertThat(results.get(1).get("error").get("status").asInt()).isEqualTo(400);
        assertThat(results.get(1).get("error").get("field").asText()).isEqualTo("boardId");
        assertThat(results.get(2).get("error").get("status").asInt()).isEqualTo(404);
        assertThat(results.get(3).get("error").get("field").asText()).isEqualTo("type");
        assertThat(results.get(4).get("status").asText()).isEqualTo("accepted");

        List<String> published = ofType(topics.events(0, Duration.ofSeconds(5)), PinCreated.class).stream()
                .filter(p -> p.getBoardId() == Long.parseLong(board)).map(PinCreated::getDetails).toList();
        assertThat(published).containsExactlyInAnyOrder("one", "two");
    }

    @Test
    void aTokenWithoutTheScopeIsRefusedPerEvent() {
        String ana = createUser(username());
        String board = createBoard(ana);
        IngestClient pinsOnly = client.as(PINS_ONLY);

        assertThat(pinsOnly.post("/v1/pins", json("{'boardId':'" + board + "','authorId':'" + ana + "','details':'ok'}")).status())
                .isEqualTo(202);
        Answer refused = pinsOnly.put("/v1/users/" + ana + "/likes/" + createPin(board, ana));
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().get("detail").asText()).contains("PinLiked");

        Answer batch = pinsOnly.post("/v1/events", json("{'events':[{'type':'BoardCreated','ownerId':'" + ana + "','name':'x'}]}"));
        assertThat(batch.json().get("results").get(0).get("error").get("status").asInt()).isEqualTo(403);
    }

    @Test
    void retriesWithOneIdempotencyKeyPublishOnceAndAnswerTheSame() throws Exception {
        String ana = createUser(username());
        String board = createBoard(ana);
        String details = "idempotent " + stack.freshId();
        String body = json("{'boardId':'" + board + "','authorId':'" + ana + "','details':'" + details + "'}");
        String key = "key-" + stack.freshId();
        Map<String, String> header = Map.of("Idempotency-Key", key);

        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Answer> answers = new ArrayList<>();
        try {
            Answer first = client.send("POST", "/v1/pins", body, "application/json", header);
            List<Future<Answer>> retries = new ArrayList<>();
            for (int i = 0; i < 4; i++) retries.add(pool.submit(() -> client.send("POST", "/v1/pins", body, "application/json", header)));
            answers.add(first);
            for (Future<Answer> f : retries) answers.add(f.get());
        } finally {
            pool.shutdownNow();
        }
        for (Answer a : answers) {
            assertThat(a.status()).isEqualTo(202);
            assertThat(a.text("id")).isEqualTo(answers.get(0).text("id"));
        }
        assertThat(answers.get(1).raw().headers().firstValue("Idempotent-Replayed")).hasValue("true");

        Answer reused = client.send("POST", "/v1/pins", body.replace("idempotent", "other"), "application/json", header);
        assertThat(reused.status()).isEqualTo(422);
        assertThat(reused.field()).isEqualTo("Idempotency-Key");

        List<PinCreated> pins = ofType(topics.events(0, Duration.ofSeconds(5)), PinCreated.class).stream()
                .filter(p -> p.getDetails().toString().startsWith("idempotent") && p.getDetails().toString().equals(details)).toList();
        assertThat(pins).hasSize(1);
    }

    @Test
    void ofConcurrentSignUpsForOneUsernameExactlyOneWins() throws Exception {
        String name = username();
        int contenders = 8;
        ExecutorService pool = Executors.newFixedThreadPool(contenders);
        List<Answer> answers = new ArrayList<>();
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Answer>> futures = new ArrayList<>();
            for (int i = 0; i < contenders; i++) {
                Callable<Answer> signUp = () -> {
                    go.await();
                    return client.post("/v1/users", json("{'username':'" + name + "'}"));
                };
                futures.add(pool.submit(signUp));
            }
            go.countDown();
            for (Future<Answer> f : futures) answers.add(f.get());
        } finally {
            pool.shutdownNow();
        }
        assertThat(answers.stream().filter(a -> a.status() == 202)).hasSize(1);
        assertThat(answers.stream().filter(a -> a.status() == 409)).hasSize(contenders - 1)
                .allSatisfy(a -> assertThat(a.field()).isEqualTo("username"));
        assertThat(ofType(topics.events(0, Duration.ofSeconds(5)), UserCreated.class).stream()
                .filter(u -> u.getUsername().toString().equals(name))).hasSize(1);
    }

    @Test
    void healthMetricsAndOpenApiAreServed() throws Exception {
        Answer health = client.send("GET", "/health", null);
        assertThat(health.status()).as(health.body()).isEqualTo(200);
        assertThat(health.json().get("checks").fieldNames()).toIterable()
                .contains("kafka", "schema-registry", "mysql001", "mysql002", "redis");

        createUser(username());
        Answer metrics = client.send("GET", "/metrics", null);
        // Micrometer writes labels in name order.
        assertThat(metrics.body()).contains("ingest_events_total{outcome=\"accepted\",type=\"UserCreated\"}")
                .contains("http_request_duration_seconds_bucket")
                .contains("jvm_memory_used_bytes")
                .contains("kafka_producer_record_send");

        Answer openApi = client.send("GET", "/openapi.json", null);
        assertThat(openApi.status()).isEqualTo(200);
        JsonNode paths = openApi.json().get("paths");
        for (RouteInfo route : app.routes()) {
            assertThat(paths.get(route.pathTemplate())).as("documented: %s", route.pathTemplate()).isNotNull();
            assertThat(paths.get(route.pathTemplate()).get(route.method().toLowerCase()))
                    .as("documented: %s %s", route.method(), route.pathTemplate()).isNotNull();
        }
    }
}
