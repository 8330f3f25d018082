package dev.pinfeed.faulttests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.Principal;
import dev.pinfeed.httpkit.RunningHttpApp;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.ingestapi.IngestApiServer;
import dev.pinfeed.ingestapi.IngestComponents;
import dev.pinfeed.ingestapi.http.IngestHttpApi;
import dev.pinfeed.ingestapi.http.TokenAuthenticator;
import dev.pinfeed.ingestapi.kafka.FreshTopics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * ingest-api's HTTP app in this JVM, wired as IngestApiServer.main wires it, publishing to fresh topics;
 * and a producer-side load: pins posted with an Idempotency-Key, the same key retried on a refusal until
 * a 202 (the acknowledged writes, {@link #acknowledged()}) or an unconfirmed publish ({@link #unconfirmed()}).
 */
final class IngestFixture implements AutoCloseable {

    /** A 202: the pin's Idempotency-Key, event id and pin id, and the board it was posted to. */
    record Ack(String key, long eventId, long pinId, long board) {}

    record Answer(int status, JsonNode json, String body) {}

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "tok-fault-" + UUID.randomUUID();

    final TestStack stack;
    final FreshTopics topics;
    final IngestComponents components;
    private final RunningHttpApp running;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ConcurrentLinkedQueue<Ack> acks = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Ack> unconfirmed = new ConcurrentLinkedQueue<>();
    private final Map<Integer, String> pendingKey = new ConcurrentHashMap<>();

    IngestFixture(TestStack stack) throws Exception {
        Preload.pinfeedClasses();
        this.stack = stack;
        topics = new FreshTopics(stack);
        components = new IngestComponents(stack.config(), topics.overrides(), stack.keyPrefix("fault-ingest"), new Properties());
        HttpApp app = IngestApiServer.app(stack.config(), components,
                new TokenAuthenticator(Map.of(TokenAuthenticator.sha256Hex(TOKEN), new Principal("fault", Set.of(Principal.ALL_SCOPES)))));
        components.bindMetrics(app.meterRegistry());
        running = app.start("127.0.0.1", 0);
    }

    Answer post(String path, String json, String idempotencyKey) throws Exception {
        return send("POST", path, json, idempotencyKey);
    }

    /** {@code method path} with an optional JSON body and Idempotency-Key. */
    Answer send(String method, String path, String json, String idempotencyKey) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(running.baseUri() + path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + TOKEN)
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) b.header("Content-Type", "application/json");
        if (idempotencyKey != null) b.header("Idempotency-Key", idempotencyKey);
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode body = r.body().startsWith("{") ? JSON.readTree(r.body()) : null;
        return new Answer(r.statusCode(), body, r.body());
    }

    /** Creates and returns an id, failing unless 202. */
    private long created(String path, String json) throws Exception {
        Answer a = post(path, json, null);
        if (a.status() != 202) throw new AssertionError("POST " + path + ": " + a.status() + " " + a.body());
        return Long.parseLong(a.json().get("id").asText());
    }

    long user() throws Exception {
        String name = "f" + Long.toString(stack.freshId(), 36);
        return created("/v1/users", "{\"username\":\"" + name + "\",\"displayName\":\"" + name + "\"}");
    }

    long board(long owner) throws Exception {
        return created("/v1/boards", "{\"ownerId\":\"" + owner + "\",\"name\":\"Faults\"}");
    }

    /**
     * One attempt of thread {@code thread}'s current pin on {@code board} by {@code author}: the same
     * Idempotency-Key again after a refusal that published nothing (503 naming a store, 429, no answer);
     * a new key after a 202 and after a {@code publish-unconfirmed} 503, which is that key's final
     * answer (the contract replays it for every retry of the key; {@link #unconfirmed()} keeps it, to
     * check in the log whether it landed). Returns what it answered.
     */
    Samples.Result attemptPin(int thread, long board, long author) throws Exception {
        String key = pendingKey.computeIfAbsent(thread, t -> "fault-" + UUID.randomUUID());
        Answer a = post("/v1/pins", "{\"boardId\":\"" + board + "\",\"authorId\":\"" + author + "\",\"details\":\"" + key
                + "\",\"link\":\"https://example.com/" + key + "\"}", key);
        if (a.status() == 202) {
            acks.add(new Ack(key, a.json().get("eventId").asLong(), Long.parseLong(a.json().get("id").asText()), board));
            pendingKey.remove(thread);
        } else if (a.json() != null && IngestHttpApi.UNCONFIRMED_TYPE.equals(a.json().path("type").asText())) {
            unconfirmed.add(new Ack(key, a.json().path("eventId").asLong(), a.json().path("id").asLong(), board));
            pendingKey.remove(thread);
        }
        return Samples.Result.of(a.status(), 202, a.body());
    }

    List<Ack> acknowledged() {
        return List.copyOf(acks);
    }

    /** The pins answered {@code publish-unconfirmed}, with the ids the answer gave: each may or may not be in the log. */
    List<Ack> unconfirmed() {
        return List.copyOf(unconfirmed);
    }

    @Override
    public void close() {
        running.close();
        components.close();
    }
}
