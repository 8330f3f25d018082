package dev.pinfeed.feedservice;

import dev.pinfeed.feedservice.homefeed.FeedCursor;
import dev.pinfeed.feedservice.homefeed.HomeFeed;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.Problem;
import dev.pinfeed.httpkit.ProblemException;
import dev.pinfeed.httpkit.Request;
import dev.pinfeed.httpkit.Response;
import dev.pinfeed.httpkit.RouteOptions;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /v1/users/{userId}/feed?limit&cursor}: the home feed ({@link HomeFeed}) as the contract
 * has it, {@code {"items": [{"pin", "source", "score"}], "cursor"}}; 404 for an unknown user, 400
 * naming {@code userId}, {@code limit} or {@code cursor}; a store outage is 503 naming the store.
 */
public final class HomeFeedHttpApi {

    private final HomeFeed feed;
    private final KnownObjects known;

    HomeFeedHttpApi(HomeFeed feed, KnownObjects known) {
        this.feed = feed;
        this.known = known;
    }

    public HttpApp.Builder routes(HttpApp.Builder app) {
        app.route("GET", "/v1/users/{userId}/feed", RouteOptions.publicRead(), this::read);
        return app;
    }

    private Response read(Request r) {
        long user = known.userId(r, "userId");
        int limit = Params.limit(r);
        HomeFeed.Page page;
        try {
            page = feed.read(user, Params.cursor(r), limit);
        } catch (FeedCursor.BadCursorException e) {
            throw new ProblemException(Problem.badRequest("cursor", e.getMessage()));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("items", page.items().stream().map(HomeFeedHttpApi::item).toList());
        body.put("cursor", page.cursor());
        return Response.json(200, body);
    }

    private static Map<String, Object> item(HomeFeed.Item i) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("pin", CanonicalHttpApi.pin(i.pin()));
        out.put("source", i.source().wireName());
        out.put("score", i.score());
        return out;
    }
}
