package dev.pinfeed.ingestapi.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pinfeed.ingestapi.core.IngestCommand;
import dev.pinfeed.ingestapi.core.IngestCommand.CreateBoard;
import dev.pinfeed.ingestapi.core.IngestCommand.CreateComment;
import dev.pinfeed.ingestapi.core.IngestCommand.CreatePin;
import dev.pinfeed.ingestapi.core.IngestCommand.CreateUser;
import dev.pinfeed.ingestapi.core.IngestCommand.DeleteComment;
import dev.pinfeed.ingestapi.core.IngestCommand.DeletePin;
import dev.pinfeed.ingestapi.core.IngestCommand.FollowBoard;
import dev.pinfeed.ingestapi.core.IngestCommand.FollowUser;
import dev.pinfeed.ingestapi.core.IngestCommand.LikePin;
import dev.pinfeed.ingestapi.core.IngestCommand.ReorderBoardPins;
import dev.pinfeed.ingestapi.core.IngestCommand.RepinPin;
import dev.pinfeed.ingestapi.core.IngestCommand.UnfollowBoard;
import dev.pinfeed.ingestapi.core.IngestCommand.UnfollowUser;
import dev.pinfeed.ingestapi.core.IngestCommand.UnlikePin;
import dev.pinfeed.ingestapi.http.IngestHttpApi;
import dev.pinfeed.ingestapi.http.JsonCommands;
import dev.pinfeed.processorruntime.Sleeper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.random.RandomGenerator;

/**
 * A thin Java client of ingest-api's HTTP write API for producers that should hold nothing but a
 * producer token (no database or Kafka credentials; compare {@link EmbeddedIngest}). One typed method
 * per write of the contract plus batches; each returns the assigned ids. Commands validate on
 * construction with the server's rules, so a bad field fails before a request is sent.
 *
 * <p>Every call carries an Idempotency-Key of its own, generated once per call and reused on every
 * retry, so a retried create never makes two objects. Retried with exponential backoff and jitter
 * (at least the server's {@code Retry-After}): 429, 503 other than "publish unconfirmed", 409
 * "idempotency in progress" (an earlier attempt whose answer was lost still runs) and transport
 * failures (no answer). A batch answered 202 with nothing accepted and only such failures is retried
 * too (the server did not store it). Other problem documents throw {@link PinfeedApiException};
 * transport failures that outlast the retries throw {@link UncheckedIOException}.
 */
public final class PinfeedHttpClient {

    /** What one write returned: the new object's id (0 for changes) and its event's id. */
    public record Written(long id, long eventId) {}

    /** One event of a batch: written, or refused with the problem the server gave. */
    public record BatchResult(Written written, PinfeedApiException error) {
        public boolean accepted() {
            return error == null;
        }
    }

    /** How requests travel: the JDK client by default; tests wrap it (to lose an answer, say). */
    @FunctionalInterface
    public interface Transport {
        HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException;
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final String token;
    private final Transport transport;
    private final Duration requestTimeout;
    private final int maxAttempts;
    private final Duration firstBackoff;
    private final Duration maxBackoff;
    private final Duration retryBudget;
    private final InstantSource clock;
    private final Sleeper sleeper;
    private final RandomGenerator random;

    private PinfeedHttpClient(Builder b) {
        this.base = b.base;
        this.token = b.token;
        this.transport = b.transport != null ? b.transport : jdkTransport();
        this.requestTimeout = b.requestTimeout;
        this.maxAttempts = b.maxAttempts;
        this.firstBackoff = b.firstBackoff;
        this.maxBackoff = b.maxBackoff;
        this.retryBudget = b.retryBudget;
        this.clock = b.clock;
        this.sleeper = b.sleeper;
        this.random = b.random;
    }

    /** A client of the ingest-api at {@code baseUri} (e.g. http://127.0.0.1:8080) sending {@code token}. */
    public static Builder builder(URI baseUri, String token) {
        return new Builder(baseUri, token);
    }

    /** POST /v1/users; returns the new user's id. */
    public long createUser(String username, String displayName) {
        return submit(new CreateUser(username, displayName)).id();
    }

    /** POST /v1/boards; returns the new board's id. */
    public long createBoard(long ownerId, String name, String description) {
        return submit(new CreateBoard(ownerId, name, description)).id();
    }

    /** POST /v1/pins; returns the new pin's id. */
    public long createPin(long boardId, long authorId, String details, String link, String imageUrl) {
        return submit(new CreatePin(boardId, authorId, details, link, imageUrl)).id();
    }

    /** POST /v1/pins/{pinId}/repins: {@code authorId} saves the pin to his board {@code boardId}; returns the repin's id. */
    public long repin(long pinId, long boardId, long authorId) {
        return submit(new RepinPin(pinId, boardId, authorId)).id();
    }

    /** DELETE /v1/pins/{pinId}; returns the event id. */
    public long deletePin(long pinId) {
        return submit(new DeletePin(pinId)).eventId();
    }

    /** POST /v1/pins/{pinId}/comments; returns the new comment's id. */
    public long createComment(long pinId, long authorId, String text) {
        return submit(new CreateComment(pinId, authorId, text)).id();
    }

    /** DELETE /v1/comments/{commentId}; returns the event id. */
    public long deleteComment(long commentId) {
        return submit(new DeleteComment(commentId)).eventId();
    }

    /** PUT /v1/users/{userId}/following/users/{targetUserId}; returns the event id. */
    public long followUser(long userId, long targetUserId) {
        return submit(new FollowUser(userId, targetUserId)).eventId();
    }

    /** DELETE /v1/users/{userId}/following/users/{targetUserId}; returns the event id. */
    public long unfollowUser(long userId, long targetUserId) {
        return submit(new UnfollowUser(userId, targetUserId)).eventId();
    }

    /** PUT /v1/users/{userId}/following/boards/{boardId}; returns the event id. */
    public long followBoard(long userId, long boardId) {
        return submit(new FollowBoard(userId, boardId)).eventId();
    }

    /** DELETE /v1/users/{userId}/following/boards/{boardId}; returns the event id. */
    public long unfollowBoard(long userId, long boardId) {
        return submit(new UnfollowBoard(userId, boardId)).eventId();
    }

    /** PUT /v1/users/{userId}/likes/{pinId}; returns the event id. */
    public long likePin(long userId, long pinId) {
        return submit(new LikePin(userId, pinId)).eventId();
    }

    /** DELETE /v1/users/{userId}/likes/{pinId}; returns the event id. */
    public long unlikePin(long userId, long pinId) {
        return submit(new UnlikePin(userId, pinId)).eventId();
    }

    /** PUT /v1/boards/{boardId}/order; returns the event id. */
    public long reorderBoardPins(long boardId, List<Long> pinIds) {
        return submit(new ReorderBoardPins(boardId, pinIds)).eventId();
    }

    /** Any one command through its own route. */
    public Written submit(IngestCommand command) {
        Route route = route(command);
        JsonNode answer = call(route.method(), route.path(), route.body(), false);
        return written(answer);
    }

    /**
     * POST /v1/events: up to 1000 commands in one request, answered per command in order. The whole
     * batch is retried only while nothing of it was accepted and every refusal was transient.
     */
    public List<BatchResult> submitBatch(List<? extends IngestCommand> commands) {
        ObjectNode body = JSON.createObjectNode();
        var events = body.putArray("events");
        commands.forEach(c -> events.add(JsonCommands.typedEventJson(c)));
        JsonNode answer = call("POST", "/v1/events", body, true);
        List<BatchResult> results = new ArrayList<>();
        for (JsonNode r : answer.path("results")) {
            results.add("accepted".equals(r.path("status").asText()) ? new BatchResult(written(r.path("ids")), null)
                    : new BatchResult(null, problem(r.path("error"), r.path("error").path("status").asInt())));
        }
        return results;
    }

    private record Route(String method, String path, JsonNode body) {}

    /** The contract's route of each command; path ids leave the body. */
    private static Route route(IngestCommand command) {
        ObjectNode fields = JsonCommands.toJson(command);
        if (command instanceof CreateUser) return new Route("POST", "/v1/users", fields);
        if (command instanceof CreateBoard) return new Route("POST", "/v1/boards", fields);
        if (command instanceof CreatePin) return new Route("POST", "/v1/pins", fields);
        if (command instanceof DeletePin c) return new Route("DELETE", "/v1/pins/" + c.pinId(), null);
        if (command instanceof CreateComment c) {
            fields.remove("pinId");
            return new Route("POST", "/v1/pins/" + c.pinId() + "/comments", fields);
        }
        if (command instanceof DeleteComment c) return new Route("DELETE", "/v1/comments/" + c.commentId(), null);
        if (command instanceof RepinPin c) {
            fields.remove("parentPinId");
            return new Route("POST", "/v1/pins/" + c.pinId() + "/repins", fields);
        }
        if (command instanceof FollowUser c) return new Route("PUT", following(c.userId(), "users", c.targetUserId()), null);
        if (command instanceof UnfollowUser c) return new Route("DELETE", following(c.userId(), "users", c.targetUserId()), null);
        if (command instanceof FollowBoard c) return new Route("PUT", following(c.userId(), "boards", c.boardId()), null);
        if (command instanceof UnfollowBoard c) return new Route("DELETE", following(c.userId(), "boards", c.boardId()), null);
        if (command instanceof IngestCommand.CreateInterest) return new Route("POST", "/v1/interests", fields);
        if (command instanceof IngestCommand.FollowInterest c) return new Route("PUT", following(c.userId(), "interests", c.interestId()), null);
        if (command instanceof IngestCommand.UnfollowInterest c) {
            return new Route("DELETE", following(c.userId(), "interests", c.interestId()), null);
        }
        if (command instanceof LikePin c) return new Route("PUT", "/v1/users/" + c.userId() + "/likes/" + c.pinId(), null);
        if (command instanceof UnlikePin c) return new Route("DELETE", "/v1/users/" + c.userId() + "/likes/" + c.pinId(), null);
        if (command instanceof ReorderBoardPins c) {
            fields.remove("boardId");
            return new Route("PUT", "/v1/boards/" + c.boardId() + "/order", fields);
        }
        throw new IllegalArgumentException("unknown command " + command);
    }

    private static String following(long userId, String kind, long targetId) {
        return "/v1/users/" + userId + "/following/" + kind + "/" + targetId;
    }

    /** Sends one logical call, retrying under one Idempotency-Key; returns the 2xx answer's JSON. */
    private JsonNode call(String method, String path, JsonNode body, boolean batch) {
        String key = UUID.randomUUID().toString();
        Instant giveUpAt = clock.instant().plus(retryBudget);
        for (int attempt = 1; ; attempt++) {
            long backoff = backoffMillis(attempt);
            RuntimeException failure = null;
            long retryAfterMillis = 0;
            try {
                HttpResponse<String> r = transport.send(request(method, path, body, key));
                if (r.statusCode() / 100 == 2) {
                    JsonNode answer = r.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(r.body());
                    if (!(batch && nothingAcceptedAndAllTransient(answer) && mayRetry(attempt, giveUpAt, backoff))) return answer;
                } else {
                    PinfeedApiException problem = problem(r);
                    if (!retryable(problem)) throw problem;
                    failure = problem;
                }
                retryAfterMillis = r.headers().firstValue("Retry-After").map(PinfeedHttpClient::seconds).orElse(0L) * 1000;
            } catch (IOException e) {
                failure = new UncheckedIOException(method + " " + path + " got no answer: " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted during " + method + " " + path, e);
            }
            long delay = Math.max(backoff, retryAfterMillis);
            if (!mayRetry(attempt, giveUpAt, delay)) throw failure;
            try {
                sleeper.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw failure != null ? failure : new IllegalStateException("interrupted during " + method + " " + path, e);
            }
        }
    }

    /** Another attempt is allowed, and would start ({@code delayMillis} from now) within the retry budget. */
    private boolean mayRetry(int attempt, Instant giveUpAt, long delayMillis) {
        return attempt < maxAttempts && clock.instant().plusMillis(delayMillis).isBefore(giveUpAt);
    }

    /** Exponential from {@code firstBackoff}, capped at {@code maxBackoff}, with jitter: half fixed, half random. */
    long backoffMillis(int attempt) {
        long cap = Math.min(maxBackoff.toMillis(), firstBackoff.toMillis() << Math.min(attempt - 1, 30));
        long half = cap / 2;
        return half + (cap - half == 0 ? 0 : random.nextLong(cap - half + 1));
    }

    private HttpRequest request(String method, String path, JsonNode body, String key) {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(requestTimeout)
                .header("Authorization", "Bearer " + token)
                .header(IngestHttpApi.IDEMPOTENCY_HEADER, key);
        if (body == null) return b.method(method, HttpRequest.BodyPublishers.noBody()).build();
        return b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body.toString())).build();
    }

    /** Worth another attempt under the same key: nothing was published, or a lost attempt is still running. */
    private static boolean retryable(PinfeedApiException e) {
        return e.status() == 429
                || e.status() == 503 && !IngestHttpApi.UNCONFIRMED_TYPE.equals(e.type())
                || e.status() == 409 && IngestHttpApi.IN_PROGRESS_TYPE.equals(e.type());
    }

    private static boolean nothingAcceptedAndAllTransient(JsonNode answer) {
        JsonNode results = answer.path("results");
        if (answer.path("accepted").asInt() != 0 || results.isEmpty()) return false;
        for (JsonNode r : results) {
            JsonNode error = r.path("error");
            if (!retryable(problem(error, error.path("status").asInt()))) return false;
        }
        return true;
    }

    private static PinfeedApiException problem(HttpResponse<String> r) {
        JsonNode doc;
        try {
            doc = r.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(r.body());
        } catch (IOException e) {
            doc = JSON.createObjectNode(); // not a problem document: the status says enough
        }
        return problem(doc, r.statusCode());
    }

    private static PinfeedApiException problem(JsonNode doc, int status) {
        return new PinfeedApiException(status, text(doc, "type"), text(doc, "title"), text(doc, "field"), text(doc, "detail"),
                text(doc, "store"));
    }

    private static Written written(JsonNode ids) {
        return new Written(ids.hasNonNull("id") ? Long.parseLong(ids.get("id").asText()) : 0, Long.parseLong(ids.path("eventId").asText("0")));
    }

    private static String text(JsonNode node, String name) {
        JsonNode v = node == null ? null : node.get(name);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static long seconds(String retryAfter) {
        try {
            return Math.max(0, Long.parseLong(retryAfter.trim()));
        } catch (NumberFormatException e) {
            return 0; // an HTTP date: our own backoff decides
        }
    }

    private static Transport jdkTransport() {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        return request -> http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** Settings; defaults: 5 attempts, backoff 100 ms doubling to at most 5 s, a 60 s retry budget, 35 s per request. */
    public static final class Builder {
        private final URI base;
        private final String token;
        private Transport transport;
        private Duration requestTimeout = Duration.ofSeconds(35); // the server may wait 30 s for Kafka
        private int maxAttempts = 5;
        private Duration firstBackoff = Duration.ofMillis(100);
        private Duration maxBackoff = Duration.ofSeconds(5);
        private Duration retryBudget = Duration.ofSeconds(60);
        private InstantSource clock = InstantSource.system();
        private Sleeper sleeper = Sleeper.SYSTEM;
        private RandomGenerator random = new SplittableRandom();

        private Builder(URI base, String token) {
            this.base = Objects.requireNonNull(base, "base");
            this.token = Objects.requireNonNull(token, "token");
        }

        public Builder transport(Transport transport) {
            this.transport = Objects.requireNonNull(transport);
            return this;
        }

        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = timeout;
            return this;
        }

        /** Attempts per call, the first included (1: never retry). */
        public Builder maxAttempts(int attempts) {
            if (attempts < 1) throw new IllegalArgumentException("maxAttempts must be >= 1");
            this.maxAttempts = attempts;
            return this;
        }

        public Builder backoff(Duration first, Duration max) {
            this.firstBackoff = first;
            this.maxBackoff = max;
            return this;
        }

        /** No retry starts once this much time passed since the call began. */
        public Builder retryBudget(Duration budget) {
            this.retryBudget = budget;
            return this;
        }

        public Builder clock(InstantSource clock) {
            this.clock = clock;
            return this;
        }

        public Builder sleeper(Sleeper sleeper) {
            this.sleeper = sleeper;
            return this;
        }

        public Builder random(RandomGenerator random) {
            this.random = random;
            return this;
        }

        public PinfeedHttpClient build() {
            return new PinfeedHttpClient(this);
        }
    }
}
