package dev.pinfeed.feedservice;

import dev.pinfeed.canonicalstore.reads.BoardPinOrder;
import dev.pinfeed.canonicalstore.reads.CanonicalBoard;
import dev.pinfeed.canonicalstore.reads.CanonicalComment;
import dev.pinfeed.canonicalstore.reads.CanonicalPin;
import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.canonicalstore.reads.CanonicalUser;
import dev.pinfeed.canonicalstore.reads.Liked;
import dev.pinfeed.canonicalstore.reads.ListPage;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.Problem;
import dev.pinfeed.httpkit.ProblemException;
import dev.pinfeed.httpkit.Request;
import dev.pinfeed.httpkit.Response;
import dev.pinfeed.httpkit.RouteOptions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The canonical objects of the read contract over {@link CanonicalReads}: users, boards, pins and
 * comments by id, a user by username, a board's pins (newest or the owner's order; by offset or cursor),
 * a user's boards and pins, likes both ways, and a pin's comments. Ids travel as decimal strings; lists are
 * {@code {"items": [...], "cursor": ...}} with {@code "cursor": null} on the last page.
 */
public final class CanonicalHttpApi {

    /** ingest-api's rule for usernames: a name outside it was never claimed. */
    private static final Pattern USERNAME = Pattern.compile("[a-z0-9_]{3,30}");

    private final CanonicalReads reads;
    private final KnownObjects known;
    private final ReaderAuth auth;

    CanonicalHttpApi(CanonicalReads reads, KnownObjects known, ReaderAuth auth) {
        this.reads = reads;
        this.known = known;
        this.auth = auth;
    }

    public HttpApp.Builder routes(HttpApp.Builder app) {
        RouteOptions read = auth.publicRead();
        app.route("GET", "/v1/users/{userId}", read, r -> Response.json(200, user(known.user(r, "userId"))));
        app.route("GET", "/v1/users/by-username/{username}", read, r -> {
            String name = r.pathParam("username");
            if (!USERNAME.matcher(name).matches()) {
                throw new ProblemException(Problem.badRequest("username", "username must be 3-30 of a-z, 0-9 and _"));
            }
            return Response.json(200, user(reads.userByUsername(name)
                    .orElseThrow(() -> new ProblemException(Problem.notFound("username", "no user named " + name)))));
        });
        app.route("GET", "/v1/boards/{boardId}", read, r -> Response.json(200, board(known.board(r, "boardId"))));
        app.route("GET", "/v1/pins/{pinId}", read, r -> Response.json(200, pin(known.pin(r, "pinId"))));
        app.route("GET", "/v1/boards/{boardId}/pins", read, this::boardPins);
        app.route("GET", "/v1/users/{userId}/boards", read, r -> {
            long user = known.userId(r, "userId");
            return page(Params.paged(() -> reads.userBoards(user, Params.cursor(r), Params.limit(r))), CanonicalHttpApi::board);
        });
        app.route("GET", "/v1/users/{userId}/pins", read, r -> {
            long user = known.userId(r, "userId");
            return page(Params.paged(() -> reads.userPins(user, Params.cursor(r), Params.limit(r))), CanonicalHttpApi::pin);
        });
        // Comments are public like their pin; a deleted or unknown pin's comments are 404 naming pinId.
        app.route("GET", "/v1/pins/{pinId}/comments", read, r -> {
            long pin = known.pin(r, "pinId").id();
            return page(Params.paged(() -> reads.pinComments(pin, Params.cursor(r), Params.limit(r))), CanonicalHttpApi::comment);
        });
        app.route("GET", "/v1/comments/{commentId}", read, r -> Response.json(200, comment(known.comment(r, "commentId"))));
        app.route("GET", "/v1/pins/{pinId}/likers", read, r -> {
            long pin = known.pin(r, "pinId").id();
            return page(Params.paged(() -> reads.pinLikers(pin, Params.cursor(r), Params.limit(r))), l -> liked("userId", l));
        });
        // What a user liked is his own: his token or a service's.
        app.route("GET", "/v1/users/{userId}/likes", auth.privateRead(0), r -> {
            long user = ReaderAuth.reader(r, known).userId();
            return page(Params.paged(() -> reads.userLikes(user, Params.cursor(r), Params.limit(r))), l -> liked("pinId", l));
        });
        return app;
    }

    private Response boardPins(Request r) {
        long board = known.boardId(r, "boardId");
        int limit = Params.limit(r);
        String cursor = Params.cursor(r);
        int offset = Params.offset(r);
        if (offset > 0 && cursor != null) {
            throw new ProblemException(Problem.badRequest("offset", "offset and cursor exclude each other: page by one of them"));
        }
        BoardPinOrder order;
        try {
            order = BoardPinOrder.parse(r.query("order").orElse(BoardPinOrder.NEWEST.wireName()));
        } catch (IllegalArgumentException e) {
            throw new ProblemException(Problem.badRequest("order", e.getMessage()));
        }
        return page(Params.paged(() -> reads.boardPins(board, order, offset, cursor, limit)), CanonicalHttpApi::pin);
    }

    static <T> Response page(ListPage<T> page, Function<T, ?> view) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("items", page.items().stream().map(view).toList());
        body.put("cursor", page.cursor());
        return Response.json(200, body);
    }

    static Map<String, Object> user(CanonicalUser u) {
        return ordered("id", Long.toString(u.id()), "username", u.username(), "displayName", u.displayName(), "createdAt", text(u.createdAt()));
    }

    static Map<String, Object> board(CanonicalBoard b) {
        return ordered("id", Long.toString(b.id()), "ownerId", Long.toString(b.ownerId()), "name", b.name(), "description", b.description(),
                "createdAt", text(b.createdAt()));
    }

    static PinJson pin(CanonicalPin p) {
        return new PinJson(Long.toString(p.id()), Long.toString(p.boardId()), Long.toString(p.authorId()), p.details(), p.link(),
                p.imageUrl(), text(p.createdAt()), p.likes(), p.comments(), p.repins(),
                p.parentPinId() == null ? null : Long.toString(p.parentPinId()), p.interests().stream().map(String::valueOf).toList());
    }

    /**
     * The contract's pin, members in this order, nulls written. A record, not a map: pins are what feed
     * pages are made of, and Jackson writes a record through property writers it resolved once, where a
     * map costs a serializer lookup per value.
     */
    record PinJson(String id, String boardId, String authorId, String details, String link, String imageUrl, String createdAt,
                   long likes, long comments, long repins, String parentPinId, List<String> interests) {}

    static CommentJson comment(CanonicalComment c) {
        return new CommentJson(Long.toString(c.id()), Long.toString(c.pinId()), Long.toString(c.authorId()), c.text(), text(c.createdAt()));
    }

    /** A comment, members in this order (a record for the same reason as {@link PinJson}: pages of them). */
    record CommentJson(String id, String pinId, String authorId, String text, String createdAt) {}

    private static Map<String, Object> liked(String idName, Liked l) {
        return ordered(idName, Long.toString(l.id()), "likedAt", text(l.at()));
    }

    private static String text(java.time.Instant at) {
        return at == null ? null : at.toString();
    }

    private static Map<String, Object> ordered(Object... namesAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) map.put((String) namesAndValues[i], namesAndValues[i + 1]);
        return map;
    }
}
