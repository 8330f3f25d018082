package dev.pinfeed.ingestapi.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pinfeed.config.Sha256;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.Principal;
import dev.pinfeed.httpkit.Problem;
import dev.pinfeed.httpkit.ProblemException;
import dev.pinfeed.httpkit.Request;
import dev.pinfeed.httpkit.Response;
import dev.pinfeed.httpkit.RouteOptions;
import dev.pinfeed.ingestapi.core.FieldRules;
import dev.pinfeed.ingestapi.core.IdempotentIngest;
import dev.pinfeed.ingestapi.core.IdempotentIngest.Decision;
import dev.pinfeed.ingestapi.core.IngestCommand;
import dev.pinfeed.ingestapi.core.IngestRejection;
import dev.pinfeed.ingestapi.core.IngestResult;
import dev.pinfeed.ingestapi.core.IngestResult.Item;
import dev.pinfeed.ingestapi.core.IngestService;
import dev.pinfeed.ingestapi.core.IngestService.Outcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The write side of the public contract: each route parses its input into a command, checks the
 * token's scope for the command's event type and hands it to {@link IngestService}; 202 only once
 * Kafka acknowledged. Requests with an Idempotency-Key go through {@link IdempotentIngest}, which
 * runs them at most once and stores their domain result; this class only maps results and
 * idempotency decisions to HTTP ({@link #problem}, {@link #answer}).
 */
public final class IngestHttpApi {

    public static final int MAX_EVENTS_PER_BATCH = 1000;
    public static final long MAX_BODY_BYTES = 64 * 1024;
    public static final long MAX_BATCH_BODY_BYTES = 4L * 1024 * 1024;
    public static final String IDEMPOTENCY_HEADER = "Idempotency-Key";
    public static final String REPLAYED_HEADER = "Idempotent-Replayed";
    /** The problem type of a 503 whose event may or may not be in the log (not safe to retry blindly). */
    public static final String UNCONFIRMED_TYPE = Problem.TYPE_BASE + "publish-unconfirmed";
    public static final String IN_PROGRESS_TYPE = Problem.TYPE_BASE + "idempotency-in-progress";
    public static final String KEY_REUSED_TYPE = Problem.TYPE_BASE + "idempotency-key-reused";
    /** The problem type of a 409 for a like, reorder or repin (later comment) naming a deleted pin; {@code field} names it. */
    public static final String PIN_DELETED_TYPE = Problem.TYPE_BASE + "pin-deleted";
    private static final Pattern IDEMPOTENCY_KEY = Pattern.compile("[\\x21-\\x7e]{1,255}");

    private final IngestService service;
    private final IdempotentIngest idempotent;
    private final Meter.MeterProvider<Counter> events;

    public IngestHttpApi(IngestService service, IdempotentIngest idempotent, MeterRegistry meters) {
        this.service = service;
        this.idempotent = idempotent;
        this.events = Counter.builder("ingest_events_total")
                .description("Events by type and outcome (accepted or the rejection reason)")
                .withRegistry(meters);
    }

    /** Adds the contract's write routes to {@code app}. */
    public HttpApp.Builder routes(HttpApp.Builder app) {
        RouteOptions write = RouteOptions.authenticatedWrite(MAX_BODY_BYTES);
        app.route("POST", "/v1/users", write, r -> command(r, req -> JsonCommands.createUser(req.json())));
        app.route("POST", "/v1/boards", write, r -> command(r, req -> JsonCommands.createBoard(req.json())));
        app.route("POST", "/v1/pins", write, r -> command(r, req -> JsonCommands.createPin(req.json())));
        app.route("POST", "/v1/pins/{pinId}/repins", write, r -> command(r, req -> JsonCommands.repin(id(req, "pinId"), req.json())));
        app.route("DELETE", "/v1/pins/{pinId}", write, r -> command(r, req -> new IngestCommand.DeletePin(id(req, "pinId"))));
        app.route("POST", "/v1/pins/{pinId}/comments", write, r -> command(r, req -> JsonCommands.createComment(id(req, "pinId"), req.json())));
        app.route("DELETE", "/v1/comments/{commentId}", write, r -> command(r, req -> new IngestCommand.DeleteComment(id(req, "commentId"))));
        app.route("PUT", "/v1/users/{userId}/following/users/{targetUserId}", write,
                r -> command(r, req -> new IngestCommand.FollowUser(id(req, "userId"), id(req, "targetUserId"))));
        app.route("DELETE", "/v1/users/{userId}/following/users/{targetUserId}", write,
                r -> command(r, req -> new IngestCommand.UnfollowUser(id(req, "userId"), id(req, "targetUserId"))));
        app.route("PUT", "/v1/users/{userId}/following/boards/{boardId}", write,
                r -> command(r, req -> new IngestCommand.FollowBoard(id(req, "userId"), id(req, "boardId"))));
        app.route("DELETE", "/v1/users/{userId}/following/boards/{boardId}", write,
                r -> command(r, req -> new IngestCommand.UnfollowBoard(id(req, "userId"), id(req, "boardId"))));
        app.route("POST", "/v1/interests", write, r -> command(r, req -> JsonCommands.createInterest(req.json())));
        app.route("PUT", "/v1/users/{userId}/following/interests/{interestId}", write,
                r -> command(r, req -> new IngestCommand.FollowInterest(id(req, "userId"), id(req, "interestId"))));
        app.route("DELETE", "/v1/users/{userId}/following/interests/{interestId}", write,
                r -> command(r, req -> new IngestCommand.UnfollowInterest(id(req, "userId"), id(req, "interestId"))));
        app.route("PUT", "/v1/users/{userId}/likes/{pinId}", write,
                r -> command(r, req -> new IngestCommand.LikePin(id(req, "userId"), id(req, "pinId"))));
        app.route("DELETE", "/v1/users/{userId}/likes/{pinId}", write,
                r -> command(r, req -> new IngestCommand.UnlikePin(id(req, "userId"), id(req, "pinId"))));
        app.route("PUT", "/v1/boards/{boardId}/order", write,
                r -> command(r, req -> JsonCommands.reorder(id(req, "boardId"), req.json())));
        app.route("POST", "/v1/events", RouteOptions.authenticatedWrite(MAX_BATCH_BODY_BYTES), r -> write(r, () -> batch(r), IngestHttpApi::batchAnswer));
        return app;
    }

    private static long id(Request request, String name) {
        return FieldRules.parseId(name, request.pathParam(name));
    }

    /** One command: creates answer {"id", "eventId"}, changes {"eventId"}. */
    private Response command(Request request, Function<Request, IngestCommand> parse) {
        return write(request, () -> single(request, parse), IngestHttpApi::singleAnswer);
    }

    private IngestResult single(Request request, Function<Request, IngestCommand> parse) {
        IngestCommand command;
        try {
            command = parse.apply(request);
        } catch (IngestRejection r) {
            return IngestResult.of(Item.rejected("unknown", r));
        }
        if (!request.principal().allows(command.eventType())) {
            return IngestResult.of(Item.rejected(command.eventType(), forbidden(request.principal(), command)));
        }
        return IngestResult.of(Item.of(service.submit(command)));
    }

    /** The batch envelope is checked first (a bad envelope is a problem of the request, not of an event). */
    private IngestResult batch(Request request) {
        JsonNode body = request.json();
        if (!body.isObject()) throw new ProblemException(Problem.badRequest(null, "the body must be a JSON object with an events array"));
        for (var names = body.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!name.equals("events")) throw new ProblemException(Problem.badRequest(name, "unknown field '" + name + "'; allowed fields are [events]"));
        }
        JsonNode list = body.get("events");
        if (list == null || !list.isArray()) throw new ProblemException(Problem.badRequest("events", "events must be an array of typed events"));
        if (list.isEmpty()) throw new ProblemException(Problem.badRequest("events", "events must hold at least one event"));
        if (list.size() > MAX_EVENTS_PER_BATCH) {
            throw new ProblemException(new Problem(Problem.TYPE_BASE + "too-many-events", "Too many events", 413,
                    "events holds " + list.size() + " events, at most " + MAX_EVENTS_PER_BATCH + " per request", "events"));
        }
        Item[] items = new Item[list.size()];
        List<IngestCommand> valid = new ArrayList<>();
        List<Integer> validIndex = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            try {
                IngestCommand command = JsonCommands.typedEvent(list.get(i));
                if (!request.principal().allows(command.eventType())) {
                    items[i] = Item.rejected(command.eventType(), forbidden(request.principal(), command));
                } else {
                    valid.add(command);
                    validIndex.add(i);
                }
            } catch (IngestRejection r) {
                items[i] = Item.rejected(typeName(list.get(i)), r);
            }
        }
        List<Outcome> submitted = valid.isEmpty() ? List.of() : service.submitAll(valid);
        for (int k = 0; k < submitted.size(); k++) items[validIndex.get(k)] = Item.of(submitted.get(k));
        return new IngestResult(List.of(items));
    }

    private static String typeName(JsonNode event) {
        JsonNode type = event == null ? null : event.get("type");
        return type != null && type.isTextual() && JsonCommands.eventTypes().contains(type.asText()) ? type.asText() : "unknown";
    }

    /**
     * Runs {@code work} (at most once per Idempotency-Key, when the request carries one) and renders its
     * result; fresh results are counted, replays are not (they published nothing).
     */
    private Response write(Request request, Supplier<IngestResult> work, Function<IngestResult, Response> render) {
        Supplier<IngestResult> counted = () -> count(work.get());
        String key = request.header(IDEMPOTENCY_HEADER).orElse(null);
        if (key == null) return render.apply(counted.get());
        if (!IDEMPOTENCY_KEY.matcher(key).matches()) {
            throw new ProblemException(Problem.badRequest(IDEMPOTENCY_HEADER, "Idempotency-Key must be 1-255 visible ASCII characters"));
        }
        return answer(idempotent.run(request.principal().name(), key, fingerprint(request), counted), render);
    }

    /** The HTTP answer to an idempotency decision. */
    static Response answer(Decision decision, Function<IngestResult, Response> render) {
        if (decision instanceof Decision.Started started) return render.apply(started.result());
        if (decision instanceof Decision.Replayed replayed) return render.apply(replayed.result()).withHeader(REPLAYED_HEADER, "true");
        if (decision instanceof Decision.InProgress) {
            throw new ProblemException(Problem.conflict(IN_PROGRESS_TYPE, IDEMPOTENCY_HEADER,
                    "a request with this Idempotency-Key is still being processed; retry shortly"));
        }
        throw new ProblemException(new Problem(KEY_REUSED_TYPE, "Idempotency-Key reused", 422,
                "this Idempotency-Key was used with a different request", IDEMPOTENCY_HEADER));
    }

    private static Response singleAnswer(IngestResult result) {
        Item item = result.items().get(0);
        if (item.accepted()) return Response.json(202, ids(item));
        if (item.eventId() != 0) return Response.problem(problem(item.rejection()), ids(item)); // unconfirmed: the ids it was published with
        return problemResponse(item.rejection());
    }

    private static Response batchAnswer(IngestResult result) {
        List<Map<String, Object>> results = new ArrayList<>(result.items().size());
        for (Item item : result.items()) {
            Map<String, Object> r = new LinkedHashMap<>();
            if (item.accepted()) {
                r.put("status", "accepted");
                r.put("ids", ids(item));
            } else {
                r.put("status", "rejected");
                Map<String, Object> error = problem(item.rejection()).toMap();
                if (item.rejection().store() != null) error.put("store", item.rejection().store());
                r.put("error", error);
                if (item.eventId() != 0) r.put("ids", ids(item)); // unconfirmed: it may be in the log under these ids
            }
            results.add(r);
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        int accepted = result.acceptedCount();
        answer.put("accepted", accepted);
        answer.put("rejected", result.items().size() - accepted);
        answer.put("results", results);
        return Response.json(202, answer);
    }

    private IngestResult count(IngestResult result) {
        for (Item item : result.items()) {
            events.withTags("type", item.eventType(), "outcome", item.accepted() ? "accepted" : item.rejection().reason().name().toLowerCase())
                    .increment();
        }
        return result;
    }

    private static Map<String, Object> ids(Item item) {
        Map<String, Object> ids = new LinkedHashMap<>();
        if (item.createdId() != 0) ids.put("id", Long.toString(item.createdId()));
        ids.put("eventId", Long.toString(item.eventId()));
        return ids;
    }

    private static IngestRejection forbidden(Principal principal, IngestCommand command) {
        return new IngestRejection(IngestRejection.Reason.FORBIDDEN, null,
                "token '" + principal.name() + "' may not publish " + command.eventType() + " events");
    }

    /** The one mapping of rejection reasons to problem documents. */
    static Problem problem(IngestRejection r) {
        return switch (r.reason()) {
            case INVALID -> Problem.badRequest(r.field(), r.detail());
            case UNKNOWN_ID -> Problem.notFound(r.field(), r.detail());
            case CONFLICT -> Problem.conflict("https://pinfeed.dev/problems/username-taken", r.field(), r.detail());
            // 409, not 410: the request's target (a like, a board's order) exists; what it names conflicts with its state.
            case DELETED -> Problem.conflict(PIN_DELETED_TYPE, r.field(), r.detail());
            case FORBIDDEN -> Problem.forbidden(r.detail());
            case OVERLOADED -> Problem.tooManyRequests(r.detail());
            case UNAVAILABLE -> Problem.serviceUnavailable(r.detail());
            case UNCONFIRMED -> new Problem(UNCONFIRMED_TYPE, "Publish unconfirmed", 503, r.detail(), null);
        };
    }

    /** A rejection as a whole answer: a store that was down is named ({@code "store"}) with {@code Retry-After: 1}, as http-kit does. */
    private static Response problemResponse(IngestRejection r) {
        if (r.store() == null) return Response.problem(problem(r));
        return Response.problem(problem(r), Map.of("store", r.store())).withHeader("Retry-After", "1");
    }

    private static String fingerprint(Request request) {
        return Sha256.hex((request.method() + " " + request.path() + "\n").getBytes(StandardCharsets.UTF_8), request.body());
    }
}
