package dev.pinfeed.feedservice;

import dev.pinfeed.canonicalstore.reads.BadCursorException;
import dev.pinfeed.followergraph.InvalidCursorException;
import dev.pinfeed.httpkit.Problem;
import dev.pinfeed.httpkit.ProblemException;
import dev.pinfeed.httpkit.Request;
import dev.pinfeed.idallocator.InvalidIdException;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import java.util.function.Supplier;

/** Read-side request parameters: typed ids from the path, paging per the contract. */
final class Params {

    static final int DEFAULT_LIMIT = 25;
    static final int MAX_LIMIT = 250;

    private Params() {}

    /** The path parameter {@code name} as an id of {@code type}; 400 naming it otherwise. */
    static long id(Request request, String name, ObjectType type) {
        return id(name, request.pathParam(name), type);
    }

    static long id(String field, String text, ObjectType type) {
        ShardedId id;
        try {
            id = ShardedId.parse(text);
        } catch (InvalidIdException | NumberFormatException e) {
            throw new ProblemException(Problem.badRequest(field, field + " is not a valid id: " + e.getMessage()));
        }
        if (type != null && id.type() != type) {
            throw new ProblemException(Problem.badRequest(field, field + " " + text + " is a " + id.typeName() + " id, expected a "
                    + type.typeName() + " id"));
        }
        return id.value();
    }

    static int limit(Request request) {
        String text = request.query("limit").orElse(null);
        if (text == null) return DEFAULT_LIMIT;
        try {
            int limit = Integer.parseInt(text);
            if (limit >= 1 && limit <= MAX_LIMIT) return limit;
        } catch (NumberFormatException ignored) {
            // falls through to the problem below
        }
        throw new ProblemException(Problem.badRequest("limit", "limit must be an integer from 1 to " + MAX_LIMIT));
    }

    /** {@code offset} (board pins, seed 002): 0 when absent. */
    static int offset(Request request) {
        String text = request.query("offset").orElse(null);
        if (text == null) return 0;
        try {
            int offset = Integer.parseInt(text);
            if (offset >= 0) return offset;
        } catch (NumberFormatException ignored) {
            // falls through to the problem below
        }
        throw new ProblemException(Problem.badRequest("offset", "offset must be an integer from 0 to " + Integer.MAX_VALUE));
    }

    /**
     * Runs a list query: a cursor the store did not issue for that list is the caller's error (400
     * "cursor"); any other failure stays ours (a store outage, a bug).
     */
    static <T> T paged(Supplier<T> query) {
        try {
            return query.get();
        } catch (InvalidCursorException | BadCursorException e) {
            throw new ProblemException(Problem.badRequest("cursor", e.getMessage()));
        }
    }

    static String cursor(Request request) {
        return request.query("cursor").filter(c -> !c.isEmpty()).orElse(null);
    }
}
