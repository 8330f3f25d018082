package dev.pinfeed.feedservice;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.followergraph.Counts;
import dev.pinfeed.followergraph.Edge;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.Page;
import dev.pinfeed.followergraph.UserRelation;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.Problem;
import dev.pinfeed.httpkit.ProblemException;
import dev.pinfeed.httpkit.Request;
import dev.pinfeed.httpkit.Response;
import dev.pinfeed.httpkit.RouteOptions;
import dev.pinfeed.idallocator.ObjectType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The graph queries of the read contract over a {@link GraphStore}: point queries, the batch
 * "which of these do I follow", exact counts, newest-first lists and a board's receivers, paged
 * with opaque cursors ({@code "cursor": null} on the last page). A user or board the canonical store
 * does not know is 404 ({@link KnownObjects}), not an empty answer; counts add the user's pins and likes.
 */
public final class GraphHttpApi {

    private final GraphStore graph;
    private final CanonicalReads reads;
    private final KnownObjects known;
    private final ReaderAuth auth;

    GraphHttpApi(GraphStore graph, CanonicalReads reads, KnownObjects known, ReaderAuth auth) {
        this.graph = graph;
        this.reads = reads;
        this.known = known;
        this.auth = auth;
    }

    public HttpApp.Builder routes(HttpApp.Builder app) {
        RouteOptions read = auth.publicRead();
        // Whom a user follows is his own: his token or a service's.
        RouteOptions own = auth.privateRead(0);
        app.route("GET", "/v1/users/{userId}/following/users/{targetUserId}", own, r -> {
            UserRelation relation = graph.relation(ReaderAuth.reader(r, known).userId(), known.userId(r, "targetUserId"));
            return Response.json(200, Map.of("following", relation.following(), "explicit", relation.explicit()));
        });
        app.route("GET", "/v1/users/{userId}/following/boards/{boardId}", own, r -> Response.json(200,
                Map.of("following", graph.followsBoard(ReaderAuth.reader(r, known).userId(), known.boardId(r, "boardId")))));
        app.route("POST", "/v1/users/{userId}/following/users:check", auth.privateRead(64 * 1024), this::check);
        app.route("GET", "/v1/users/{userId}/counts", read, r -> {
            long userId = known.userId(r, "userId");
            Counts c = graph.counts(userId);
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("followers", c.followers());
            body.put("followingUsers", c.followingUsers());
            body.put("followingBoards", c.followingBoards());
            body.put("followingInterests", graph.followingInterestsCount(userId));
            body.put("boards", graph.boardsOwnedCount(userId));
            body.put("explicitFollowers", c.explicitFollowers());
            body.put("implicitFollowers", c.implicitFollowers());
            body.put("pins", reads.pinCount(userId));
            body.put("likes", reads.likeCount(userId));
            return Response.json(200, body);
        });
        app.route("GET", "/v1/users/{userId}/followers", read,
                r -> edges(Params.paged(() -> graph.followers(known.userId(r, "userId"), Params.cursor(r), Params.limit(r))), "userId"));
        app.route("GET", "/v1/users/{userId}/following/users", own,
                r -> edges(Params.paged(() -> graph.followingUsers(ReaderAuth.reader(r, known).userId(), Params.cursor(r), Params.limit(r))), "userId"));
        app.route("GET", "/v1/users/{userId}/following/boards", own,
                r -> edges(Params.paged(() -> graph.followingBoards(ReaderAuth.reader(r, known).userId(), Params.cursor(r), Params.limit(r))), "boardId"));
        app.route("GET", "/v1/boards/{boardId}/followers", read, r -> {
            Page<Long> page = Params.paged(() -> graph.boardReceivers(known.boardId(r, "boardId"), Params.cursor(r), Params.limit(r)));
            List<Map<String, Object>> items = new ArrayList<>();
            for (Long id : page.items()) items.add(Map.of("userId", Long.toString(id)));
            return page(items, page.nextCursor());
        });
        return app;
    }

    private Response check(Request r) {
        long userId = ReaderAuth.reader(r, known).userId();
        JsonNode body = r.json();
        JsonNode ids = body.get("ids");
        if (!body.isObject() || ids == null || !ids.isArray()) {
            throw new ProblemException(Problem.badRequest("ids", "the body must be {\"ids\": [id strings]}"));
        }
        if (ids.size() > GraphStore.MAX_BATCH) {
            throw new ProblemException(Problem.badRequest("ids", "at most " + GraphStore.MAX_BATCH + " ids per request, got " + ids.size()));
        }
        Set<Long> candidates = new LinkedHashSet<>();
        for (int i = 0; i < ids.size(); i++) {
            JsonNode id = ids.get(i);
            if (!id.isTextual()) throw new ProblemException(Problem.badRequest("ids[" + i + "]", "ids[" + i + "] must be an id string"));
            candidates.add(Params.id("ids[" + i + "]", id.asText(), ObjectType.USER));
        }
        Set<Long> followed = graph.followedAmong(userId, candidates);
        List<String> answer = new ArrayList<>();
        for (Long c : candidates) if (followed.contains(c)) answer.add(Long.toString(c));
        return Response.json(200, Map.of("following", answer));
    }

    private Response edges(Page<Edge> page, String idName) {
        List<Map<String, Object>> items = new ArrayList<>(page.items().size());
        for (Edge e : page.items()) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put(idName, Long.toString(e.id()));
            item.put("since", java.time.Instant.ofEpochMilli(e.since()).toString());
            item.put("explicit", e.explicit());
            items.add(item);
        }
        return page(items, page.nextCursor());
    }

    private static Response page(List<Map<String, Object>> items, String cursor) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("items", items);
        body.put("cursor", cursor);
        return Response.json(200, body);
    }
}
