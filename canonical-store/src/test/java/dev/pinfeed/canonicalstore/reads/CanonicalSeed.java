package dev.pinfeed.canonicalstore.reads;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pinfeed.canonicalstore.CanonicalLayout.Json;
import java.util.List;

/**
 * What tests put into a canonical store before reading it: the effects of the domain events as the
 * materializer applies them (objects, their mapping rows, soft deletes, likes, comments, a board's custom order).
 * Times are epoch milliseconds; a mapping's sequence is its object's creation time.
 */
public interface CanonicalSeed {

    void user(long id, String username, String displayName, long createdAt);

    void board(long id, long ownerId, String name, String description, long createdAt);

    void pin(long id, long boardId, long authorId, String details, String link, String imageUrl, long createdAt);

    /** PinDeleted: the pin's JSON says {@code "active": false}, its board and author rows are inactive. */
    void deletePin(long pinId);

    /** PinLiked ({@code liked}) or PinUnliked at {@code at}: the newest call for a pair wins. */
    void like(long userId, long pinId, long at, boolean liked);

    /** CommentCreated: the comment's object row and its pin's pin_has_comments row. */
    void comment(long id, long pinId, long authorId, String text, long createdAt);

    /** CommentDeleted: the comment's JSON says {@code "active": false}, its pin_has_comments row is inactive. */
    void deleteComment(long commentId);

    /** InterestCreated: the interest's object row. */
    void interest(long id, String name, long createdAt);

    /**
     * A PinCreated's interest: the interest's interest_has_pins row for the pin (sequence: the pin's creation time), and the
     * interest appended to the pin's JSON {@code interests} when the pin is stored.
     */
    void tagPin(long interestId, long pinId, long createdAt);

    /** BoardPinsReordered: the listed pins take positions 0.., every other pin of the board none. */
    void reorder(long boardId, List<Long> pinIds);

    /** The objects' JSON as the materializer stores it ({@code data}). */
    final class Data {
        private static final ObjectMapper MAPPER = new ObjectMapper();

        private Data() {}

        public static String user(long id, String username, String displayName, long createdAt) {
            ObjectNode o = base(id, createdAt).put(Json.USERNAME, username);
            if (displayName != null) o.put(Json.DISPLAY_NAME, displayName);
            return o.toString();
        }

        public static String board(long id, long ownerId, String name, String description, long createdAt) {
            ObjectNode o = base(id, createdAt).put(Json.OWNER_ID, ownerId).put(Json.NAME, name);
            if (description != null) o.put(Json.DESCRIPTION, description);
            return o.toString();
        }

        public static String pin(long id, long boardId, long authorId, String details, String link, String imageUrl, long createdAt) {
            ObjectNode o = base(id, createdAt).put(Json.BOARD_ID, boardId).put(Json.AUTHOR_ID, authorId).put(Json.DETAILS, details);
            if (link != null) o.put(Json.LINK, link);
            if (imageUrl != null) o.put(Json.IMAGE_URL, imageUrl);
            return o.toString();
        }

        public static String interest(long id, String name, long createdAt) {
            return base(id, createdAt).put(Json.NAME, name).toString();
        }

        public static String comment(long id, long pinId, long authorId, String text, long createdAt) {
            return base(id, createdAt).put(Json.PIN_ID, pinId).put(Json.AUTHOR_ID, authorId).put(Json.TEXT, text).toString();
        }

        private static ObjectNode base(long id, long createdAt) {
            return MAPPER.createObjectNode().put(Json.ID, id).put(Json.CREATED_AT, createdAt);
        }
    }
}
