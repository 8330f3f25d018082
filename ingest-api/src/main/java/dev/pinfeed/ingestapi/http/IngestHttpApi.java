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
import dev.pinfeed.ingestapi.core.IdempotencyStore;
import dev.pinfeed.ingestapi.core.IdempotencyStore.Begin;
import dev.pinfeed.ingestapi.core.IdempotencyStore.StoredAnswer;
import dev.pinfeed.ingestapi.core.IngestCommand;
import dev.pinfeed.ingestapi.core.IngestRejection;
import dev.pinfeed.ingestapi.core.IngestService;
import dev.pinfeed.ingestapi.core.IngestService.Outcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The write side of the public contract: each route parses its input into a command, checks the
 * token's scope for the command's event type and hands it to {@link IngestService}; 202 only once
 * Kafka acknowledged. Requests with an Idempotency-Key are answered from the stored answer on retry.
 */
public final class IngestHttpApi {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(IngestHttpApi.class);

    public static final int MAX_EVENTS_PER_BATCH = 1000;
    public static final long MAX_BODY_BYTES = 64 * 1024;
    public static final long MAX_BATCH_BODY_BYTES = 4L * 1024 * 1024;
    static final String IDEMPOTENCY_HEADER = "Idempotency-Key";
    private static final Pattern IDEMPOTENCY_KEY = Pattern.compile("[\\x21-\\x7e]{1,255}");

    private final IngestService service;
    private final IdempotencyStore idempotency;
    private final Duration idempotencyLease;
    private final Duration idempotencyRetention;
    private final Meter.MeterProvider<Counter> events;

    public IngestHttpApi(IngestService service, IdempotencyStore idempotency, Duration idempotencyLease,
                         Duration idempotencyRetention, MeterRegistry meters) {
        this.service = service;
        this.idempotency = idempotency;
        this.idempotencyLease = idempotencyLease;
        this.idempotencyRetention = idempotencyRetention;
        this.events = Counter.builder("ingest_events_total")
                .description("Events by type and outcome (accepted or the rejection reason)")
                .withRegistry(meters);
    }

    /** Adds the contract's write routes to {@code app}. */
    public HttpApp.Builder routes(HttpApp.Builder app) {
        RouteOptions write = RouteOptions.authenticatedWrite(MAX_BODY_BYTES);
        app.route("POST", "/v1/users", write, r -> created(r, req -> JsonCommands.createUser(req.json())));
        app.route("POST", "/v1/boards", write, r -> created(r, req -> JsonCommands.createBoard(req.json())));
        app.route("POST", "/v1/pins", write, r -> created(r, req -> JsonCommands.createPin(req.json())));
        app.route("DELETE", "/v1/pins/{pinId}", write, r -> changed(r, req -> new IngestCommand.DeletePin(id(req, "pinId"))));
        app.route("PUT", "/v1/users/{userId}/following/users/{targetUserId}", write,
                r -> changed(r, req -> new IngestCommand.FollowUser(id(req, "userId"), id(req, "targetUserId"))));
        app.route("DELETE", "/v1/users/{userId}/following/users/{targetUserId}", write,
                r -> changed(r, req -> new IngestCommand.UnfollowUser(id(req, "userId"), id(req, "targetUserId"))));
        app.route("PUT", "/v1/users/{userId}/following/boards/{boardId}", write,
                r -> changed(r, req -> new IngestCommand.FollowBoard(id(req, "userId"), id(req, "boardId"))));
        app.route("DELETE", "/v1/users/{userId}/following/boards/{boardId}", write,
                r -> changed(r, req -> new IngestCommand.UnfollowBoard(id(req, "userId"), id(req, "boardId"))));
        app.route("PUT", "/v1/users/{userId}/likes/{pinId}", write,
                r -> changed(r, req -> new IngestCommand.LikePin(id(req, "userId"), id(req, "pinId"))));
        app.route("DELETE", "/v1/users/{userId}/likes/{pinId}", write,
                r -> changed(r, req -> new IngestCommand.UnlikePin(id(req, "userId"), id(req, "pinId"))));
        app.route("PUT", "/v1/boards/{boardId}/order", write,
                r -> changed(r, req -> JsonCommands.reorder(id(req, "boardId"), req.json())));
        app.route("POST", "/v1/events", RouteOptions.authenticatedWrite(MAX_BATCH_BODY_BYTES), r -> idempotent(r, this::batch));
        return app;
    }

    private static long id(Request request, String name) {
        return FieldRules.parseId(name, request.pathParam(name));
    }

    /** Creates answer {"id", "eventId"}. */
    private Response created(Request request, Function<Request, IngestCommand> parse) {
        return idempotent(request, r -> single(r, parse, true));
    }

    /** Changes answer {"eventId"}. */
    private Response changed(Request request, Function<Request, IngestCommand> parse) {
        return idempotent(request, r -> single(r, parse, false));
    }

    private Answer single(Request request, Function<Request, IngestCommand> parse, boolean creates) {
        IngestCommand command;
        try {
            command = parse.apply(request);
        } catch (IngestRejection r) {
            count("unknown", r.reason().name().toLowerCase());
            return new Answer(Response.problem(problem(r)), false);
        }
        Outcome outcome;
        if (!request.principal().allows(command.eventType())) {
            outcome = Outcome.rejected(command, forbidden(request.principal(), command));
        } else {
            outcome = service.submit(command);
        }
        count(outcome);
        if (!outcome.accepted()) return new Answer(Response.problem(problem(outcome.rejection())), retryable(outcome.rejection()));
        return new Answer(Response.json(202, ids(outcome, creates)), false);
    }

    /** Nothing was published and running again is safe. */
    private static boolean retryable(IngestRejection r) {
        return r.reason() == IngestRejection.Reason.OVERLOADED || r.reason() == IngestRejection.Reason.UNAVAILABLE;
    }

    private Answer batch(Request request) {
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
            throw new ProblemException(new Problem("https://pinfeed.dev/problems/too-many-events", "Too many events", 413,
                    "events holds " + list.size() + " events, at most " + MAX_EVENTS_PER_BATCH + " per request", "events"));
        }
        Outcome[] outcomes = new Outcome[list.size()];
        IngestRejection[] parseErrors = new IngestRejection[list.size()];
        List<IngestCommand> valid = new ArrayList<>();
        List<Integer> validIndex = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            try {
                IngestCommand command = JsonCommands.typedEvent(list.get(i));
                if (!request.principal().allows(command.eventType())) {
                    outcomes[i] = Outcome.rejected(command, forbidden(request.principal(), command));
                } else {
                    valid.add(command);
                    validIndex.add(i);
                }
            } catch (IngestRejection r) {
                parseErrors[i] = r;
            }
        }
        List<Outcome> submitted = valid.isEmpty() ? List.of() : service.submitAll(valid);
        for (int k = 0; k < submitted.size(); k++) outcomes[validIndex.get(k)] = submitted.get(k);
        List<Map<String, Object>> results = new ArrayList<>(list.size());
        int accepted = 0;
        boolean anyTransient = false;
        boolean anyFinal = false;
        for (int i = 0; i < list.size(); i++) {
            Map<String, Object> result = new LinkedHashMap<>();
            if (parseErrors[i] != null) {
                anyFinal = true;
                count(typeName(list.get(i)), parseErrors[i].reason().name().toLowerCase());
                result.put("status", "rejected");
                result.put("error", problem(parseErrors[i]).toMap());
            } else {
                Outcome o = outcomes[i];
                count(o);
                if (!o.accepted() && retryable(o.rejection())) anyTransient = true; else if (!o.accepted()) anyFinal = true;
                if (o.accepted()) {
                    accepted++;
                    result.put("status", "accepted");
                    result.put("ids", ids(o, o.createdId() != 0));
                } else {
                    result.put("status", "rejected");
                    result.put("error", problem(o.rejection()).toMap());
                }
            }
            results.add(result);
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("accepted", accepted);
        answer.put("rejected", list.size() - accepted);
        answer.put("results", results);
        // Replaying is pointless only when nothing was published and every failure was transient.
        boolean retryable = accepted == 0 && anyTransient && !anyFinal;
        return new Answer(Response.json(202, answer), retryable);
    }

    private static String typeName(JsonNode event) {
        JsonNode type = event == null ? null : event.get("type");
        return type != null && type.isTextual() && JsonCommands.eventTypes().contains(type.asText()) ? type.asText() : "unknown";
    }

    private void count(Outcome o) {
        count(o.command().eventType(), o.accepted() ? "accepted" : o.rejection().reason().name().toLowerCase());
    }

    /** {@code ingest_events_total{type,outcome}}. */
    private void count(String type, String outcome) {
        events.withTags("type", type, "outcome", outcome).increment();
    }

    private static Map<String, Object> ids(Outcome o, boolean creates) {
        Map<String, Object> ids = new LinkedHashMap<>();
        if (creates) ids.put("id", Long.toString(o.createdId()));
        ids.put("eventId", Long.toString(o.eventId()));
        return ids;
    }

    private static IngestRejection forbidden(Principal principal, IngestCommand command) {
        return new IngestRejection(IngestRejection.Reason.FORBIDDEN, null,
                "token '" + principal.name() + "' may not publish " + command.eventType() + " events");
    }

    static Problem problem(IngestRejection r) {
        return switch (r.reason()) {
            case INVALID -> Problem.badRequest(r.field(), r.detail());
            case UNKNOWN_ID -> Problem.notFound(r.field(), r.detail());
            case CONFLICT -> Problem.conflict("https://pinfeed.dev/problems/username-taken", r.field(), r.detail());
            case FORBIDDEN -> Problem.forbidden(r.detail());
            case OVERLOADED -> Problem.tooManyRequests(r.detail());
            case UNAVAILABLE, UNCONFIRMED -> Problem.serviceUnavailable(r.detail());
        };
    }

    /** An answer, and whether running the request again is safe because it published nothing. */
    private record Answer(Response response, boolean retryable) {}

    /**
     * Runs {@code handler} at most once per (token, Idempotency-Key): a retry with the same body gets
     * the stored answer. Answers of requests that published nothing (429, 503 before publishing) are
     * not stored, so a retry runs again; an unconfirmed publish is stored, as a retry could duplicate it.
     */
    private Response idempotent(Request request, Function<Request, Answer> handler) {
        String key = request.header(IDEMPOTENCY_HEADER).orElse(null);
        if (key == null) return handler.apply(request).response();
        if (!IDEMPOTENCY_KEY.matcher(key).matches()) {
            throw new ProblemException(Problem.badRequest(IDEMPOTENCY_HEADER, "Idempotency-Key must be 1-255 visible ASCII characters"));
        }
        String scope = request.principal().name();
        String fingerprint = fingerprint(request);
        Begin begin;
        try {
            begin = idempotency.begin(scope, key, fingerprint, idempotencyLease);
        } catch (RuntimeException e) {
            throw new ProblemException(Problem.serviceUnavailable("the idempotency store (Redis) is unavailable: " + e.getMessage()));
        }
        if (begin instanceof Begin.Replay replay) {
            StoredAnswer a = replay.answer();
            Response stored = a.status() >= 400
                    ? Response.text(a.status(), "application/problem+json", a.body())
                    : Response.text(a.status(), "application/json", a.body());
            return stored.withHeader("Idempotent-Replayed", "true");
        }
        if (begin instanceof Begin.InProgress) {
            throw new ProblemException(Problem.conflict("https://pinfeed.dev/problems/idempotency-in-progress", IDEMPOTENCY_HEADER,
                    "a request with this Idempotency-Key is still being processed; retry shortly"));
        }
        if (begin instanceof Begin.Mismatch) {
            throw new ProblemException(new Problem("https://pinfeed.dev/problems/idempotency-key-reused", "Idempotency-Key reused", 422,
                    "this Idempotency-Key was used with a different request", IDEMPOTENCY_HEADER));
        }
        Answer answer;
        try {
            answer = handler.apply(request);
        } catch (ProblemException e) {
            answer = new Answer(Response.problem(e.problem()), e.problem().status() >= 500 || e.problem().status() == 429);
        } catch (RuntimeException e) {
            abandonQuietly(scope, key, fingerprint);
            throw e;
        }
        if (answer.retryable()) {
            abandonQuietly(scope, key, fingerprint);
        } else {
            try {
                idempotency.complete(scope, key, fingerprint,
                        new StoredAnswer(answer.response().status(), new String(answer.response().bodyBytes(), StandardCharsets.UTF_8)),
                        idempotencyRetention);
            } catch (RuntimeException e) {
                // The work is done; the caller gets its answer even if it could not be remembered.
                LOG.warn("could not store the answer for an Idempotency-Key of '{}': {}", scope, e.getMessage());
            }
        }
        return answer.response();
    }

    private void abandonQuietly(String scope, String key, String fingerprint) {
        try {
            idempotency.abandon(scope, key, fingerprint);
        } catch (RuntimeException e) {
            LOG.warn("could not release an Idempotency-Key of '{}' (it lapses after its lease): {}", scope, e.getMessage());
        }
    }

    private static String fingerprint(Request request) {
        return Sha256.hex((request.method() + " " + request.path() + "\n").getBytes(StandardCharsets.UTF_8), request.body());
    }
}
