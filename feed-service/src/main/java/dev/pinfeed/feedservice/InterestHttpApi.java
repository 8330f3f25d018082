package dev.pinfeed.feedservice;

import dev.pinfeed.canonicalstore.reads.CanonicalInterest;
import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.followergraph.Edge;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.Page;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.Response;
import dev.pinfeed.httpkit.RouteOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Interests: an interest with its follower and pin counts and its pins newest first (public, like a board's), and a user's
 * followed interests (his own, like whom he follows). An unknown interest is 404 naming {@code interestId}.
 */
final class InterestHttpApi {

    private final GraphStore graph;
    private final CanonicalReads reads;
    private final KnownObjects known;
    private final ReaderAuth auth;

    InterestHttpApi(GraphStore graph, CanonicalReads reads, KnownObjects known, ReaderAuth auth) {
        this.graph = graph;
        this.reads = reads;
        this.known = known;
        this.auth = auth;
    }

    HttpApp.Builder routes(HttpApp.Builder app) {
        RouteOptions read = auth.publicRead();
        RouteOptions own = auth.privateRead(0);
        app.route("GET", "/v1/interests/{interestId}", read, r -> {
            CanonicalInterest interest = known.interest(r, "interestId");
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("id", Long.toString(interest.id()));
            body.put("name", interest.name());
            body.put("createdAt", interest.createdAt() == null ? null : interest.createdAt().toString());
            body.put("followers", graph.interestFollowerCount(interest.id()));
            body.put("pins", reads.interestPinCount(interest.id()));
            return Response.json(200, body);
        });
        app.route("GET", "/v1/interests/{interestId}/pins", read, r -> {
            long interest = known.interest(r, "interestId").id();
            return CanonicalHttpApi.page(Params.paged(() -> reads.interestPins(interest, Params.cursor(r), Params.limit(r))),
                    CanonicalHttpApi::pin);
        });
        app.route("GET", "/v1/users/{userId}/following/interests", own, r -> {
            Page<Edge> page = Params.paged(() -> graph.followingInterests(ReaderAuth.reader(r, known).userId(), Params.cursor(r),
                    Params.limit(r)));
            List<Map<String, Object>> items = new ArrayList<>(page.items().size());
            for (Edge e : page.items()) {
                Map<String, Object> item = new LinkedHashMap<>();
                item.put("interestId", Long.toString(e.id()));
                item.put("since", java.time.Instant.ofEpochMilli(e.since()).toString());
                items.add(item);
            }
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("items", items);
            body.put("cursor", page.nextCursor());
            return Response.json(200, body);
        });
        app.route("GET", "/v1/users/{userId}/following/interests/{interestId}", own, r -> Response.json(200,
                Map.of("following", graph.followsInterest(ReaderAuth.reader(r, known).userId(), known.interest(r, "interestId").id()))));
        return app;
    }
}
