package dev.pinfeed.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import dev.pinfeed.console.pipeline.PipelineMonitor;
import dev.pinfeed.httpkit.Authenticator;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.Problem;
import dev.pinfeed.httpkit.ProblemException;
import dev.pinfeed.httpkit.ReaderClaims;
import dev.pinfeed.httpkit.Request;
import dev.pinfeed.httpkit.Response;
import dev.pinfeed.httpkit.RouteOptions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The console's routes (the browser's API: {@code docs/console.md}): its web files, sign-in, reads passed on to
 * feed-service as they are, writes passed on to ingest-api on behalf of the signed-in reader only, and the pipeline's
 * live state.
 */
final class ConsoleApp {

    static final String READ = "/api/read";
    static final String WRITE = "/api/write";

    /** The feed-service reads the console passes on (feed-service checks their tokens itself). */
    static final List<String> READ_ROUTES = List.of(
            "GET /v1/users/{userId}/feed",
            "GET /v1/users/{userId}",
            "GET /v1/users/by-username/{username}",
            "GET /v1/boards/{boardId}",
            "GET /v1/pins/{pinId}",
            "GET /v1/boards/{boardId}/pins",
            "GET /v1/users/{userId}/boards",
            "GET /v1/users/{userId}/pins",
            "GET /v1/users/{userId}/followers",
            "GET /v1/users/{userId}/following/users",
            "GET /v1/users/{userId}/following/boards",
            "GET /v1/users/{userId}/following/users/{targetUserId}",
            "GET /v1/users/{userId}/following/boards/{boardId}",
            "GET /v1/boards/{boardId}/followers",
            "GET /v1/users/{userId}/counts",
            "GET /v1/users/{userId}/likes",
            "GET /v1/pins/{pinId}/likers",
            "POST /v1/users/{userId}/following/users:check");

    /** The ingest-api writes a signed-in reader may make, each naming the acting user in its path. */
    static final List<String> WRITE_ROUTES_IN_PATH = List.of(
            "PUT /v1/users/{userId}/following/users/{targetUserId}",
            "DELETE /v1/users/{userId}/following/users/{targetUserId}",
            "PUT /v1/users/{userId}/following/boards/{boardId}",
            "DELETE /v1/users/{userId}/following/boards/{boardId}",
            "PUT /v1/users/{userId}/likes/{pinId}",
            "DELETE /v1/users/{userId}/likes/{pinId}");

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ConsoleSettings settings;
    private final ServiceProxy feedService;
    private final ServiceProxy ingestApi;
    private final SignIn signIn;
    private final PipelineMonitor pipeline;
    private final WebFiles web;

    ConsoleApp(ConsoleSettings settings, ServiceProxy feedService, ServiceProxy ingestApi, SignIn signIn, PipelineMonitor pipeline, WebFiles web) {
        this.settings = settings;
        this.feedService = feedService;
        this.ingestApi = ingestApi;
        this.signIn = signIn;
        this.pipeline = pipeline;
        this.web = web;
    }

    /** The routes on {@code app}, whose authenticator checks reader tokens (the writes need one). */
    HttpApp.Builder routes(HttpApp.Builder app, Authenticator readers) {
        app.authenticator(readers);
        app.route("GET", "/", RouteOptions.publicRead(), r -> web.file("index.html"));
        app.route("GET", "/web/{file}", RouteOptions.publicRead(), r -> web.file(r.pathParam("file")));
        app.route("GET", "/api/config", RouteOptions.publicRead(), r -> Response.json(200, config()));
        app.route("POST", "/api/session", new RouteOptions(false, 4096, true), r -> Response.json(200, signIn.signIn(r.json())));
        app.route("GET", "/api/pipeline", settings.pipelineNeedsToken() ? new RouteOptions(true, 0, false) : RouteOptions.publicRead(),
                r -> Response.json(200, pipeline.snapshot()));
        for (String route : READ_ROUTES) {
            String[] parts = route.split(" ", 2);
            RouteOptions options = parts[0].equals("GET") ? RouteOptions.publicRead() : new RouteOptions(false, 64 * 1024, true);
            app.route(parts[0], READ + parts[1], options, r -> feedService.forward(r, READ, r.header("Authorization")));
        }
        for (String route : WRITE_ROUTES_IN_PATH) {
            String[] parts = route.split(" ", 2);
            app.route(parts[0], WRITE + parts[1], RouteOptions.authenticated(), r -> {
                requireActingUser(r, idParam(r, "userId"), "userId");
                return toIngest(r);
            });
        }
        app.route("POST", WRITE + "/v1/pins", RouteOptions.authenticatedWrite(16 * 1024), r -> {
            requireActingUser(r, idField(r.json(), "authorId"), "authorId");
            requireOwnBoard(r, idField(r.json(), "boardId"));
            return toIngest(r);
        });
        app.route("POST", WRITE + "/v1/boards", RouteOptions.authenticatedWrite(16 * 1024), r -> {
            requireActingUser(r, idField(r.json(), "ownerId"), "ownerId");
            return toIngest(r);
        });
        return app;
    }

    private Map<String, Object> config() {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("signIn", settings.signIn().name().toLowerCase());
        c.put("suggestedUsers", settings.suggestedUsers());
        c.put("refreshMillis", settings.refresh().toMillis());
        c.put("docs", settings.docs());
        c.put("pipelineNeedsToken", settings.pipelineNeedsToken());
        return c;
    }

    private Response toIngest(Request r) {
        return ingestApi.forward(r, WRITE, settings.ingestToken().map(t -> "Bearer " + t));
    }

    /** The reader's own user id (the token's subject): a service token, or another user, acts for nobody here. */
    private static void requireActingUser(Request r, long actingUser, String field) {
        OptionalLong reader = ReaderClaims.userOf(r.principal());
        if (reader.isEmpty()) throw new ProblemException(Problem.forbidden("only a signed-in user acts through the console"));
        if (reader.getAsLong() != actingUser) {
            throw new ProblemException(Problem.forbidden(field + " " + Long.toUnsignedString(actingUser)
                    + " is not the signed-in user " + Long.toUnsignedString(reader.getAsLong())));
        }
    }

    /** A pin goes only onto one of the reader's own boards. */
    private void requireOwnBoard(Request r, long boardId) {
        Response board = feedService.forward("GET", "/v1/boards/" + Long.toUnsignedString(boardId), "", Optional.empty(), null);
        if (board.status() == 404) throw new ProblemException(Problem.notFound("boardId", "no board " + Long.toUnsignedString(boardId)));
        if (board.status() != 200) return; // feed-service's trouble: ingest-api checks the board exists itself
        JsonNode owner;
        try {
            owner = JSON.readTree(board.bodyBytes()).path("ownerId");
        } catch (IOException e) {
            return; // not a board document: ingest-api's own checks decide
        }
        long reader = ReaderClaims.userOf(r.principal()).orElseThrow();
        if (!owner.asText().equals(Long.toUnsignedString(reader))) {
            throw new ProblemException(Problem.forbidden("board " + Long.toUnsignedString(boardId) + " is not one of the signed-in user's boards"));
        }
    }

    static long idParam(Request r, String name) {
        return parseId(r.pathParam(name), name);
    }

    static long idField(JsonNode body, String name) {
        JsonNode v = body.path(name);
        if (!v.isTextual() && !v.isIntegralNumber()) throw new ProblemException(Problem.badRequest(name, name + " is required (an id, as a string)"));
        return parseId(v.asText(), name);
    }

    private static long parseId(String value, String name) {
        try {
            return Long.parseUnsignedLong(value);
        } catch (NumberFormatException e) {
            throw new ProblemException(Problem.badRequest(name, name + " must be a 64-bit id: " + value));
        }
    }

}
