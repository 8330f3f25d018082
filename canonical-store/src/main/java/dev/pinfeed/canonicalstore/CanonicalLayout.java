package dev.pinfeed.canonicalstore;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.time.Instant;

/**
 * The canonical tables of every logical shard (infra/definitions/mysql-shard-schema.sql) and the JSON
 * of their objects: the only place their names are spelled. Seeds 000/002: an object lives in the
 * shard its id names, keyed by its local id, {@code data} holding its JSON; a mapping
 * {@code (from, to, sequence)} lives on the from-object's shard, one table per direction.
 */
public final class CanonicalLayout {

    private CanonicalLayout() {}

    // ---- object tables: (local_id PK, data JSON, ts)
    public static final String USERS = "users";
    public static final String BOARDS = "boards";
    public static final String PINS = "pins";
    public static final String COMMENTS = "comments";
    /** Interests (topics pins carry and users follow), on a random open shard like users. */
    public static final String INTERESTS = "interests";
    public static final String LOCAL_ID = "local_id";
    public static final String DATA = "data";
    /**
     * When the newest event applied to the row occurred (the create, a pin's delete, a board's winning reorder):
     * a function of the events, not of when they were written, so a replay leaves it as it was ({@link #ts}).
     */
    public static final String TS = "ts";
    /** boards: the version of the BoardPinsReordered in force ({@link #version}). */
    public static final String ORDER_VERSION = "order_version";

    // ---- the cross-shard username index (seed 003): (username PK, user_id) in the shard UsernameShards picks
    public static final String USERNAMES = "usernames";
    public static final String USERNAME = "username";
    /** The same kind of index for interest names: (name PK, interest_id) in the shard UsernameShards picks for the name. */
    public static final String INTEREST_NAMES = "interest_names";
    public static final String NAME = "name";

    // ---- mapping tables: (from, to) primary key, sequence = creation time in ms
    public static final String SEQUENCE = "sequence";
    /** board_has_pins, user_has_pins: 0 once the pin is deleted; pin_has_comments: 0 once the comment is deleted. */
    public static final String ACTIVE = "active";
    /** board_has_pins: the pin's place in the owner's custom order, NULL when the order does not list it. */
    public static final String POSITION = "position";
    /** user_likes_pins, pin_liked_by_users: 1 liked, 0 unliked (the row stays: last writer wins by {@link #VERSION}). */
    public static final String LIKED = "liked";
    public static final String VERSION = "version";
    public static final String USER_ID = "user_id";
    public static final String BOARD_ID = "board_id";
    public static final String PIN_ID = "pin_id";
    public static final String COMMENT_ID = "comment_id";
    /** pin_has_repins: the repin (a pin whose JSON names the from-pin as its {@code parentPinId}). */
    public static final String REPIN_ID = "repin_id";
    public static final String INTEREST_ID = "interest_id";

    /** The mapping tables, each with its from and to columns. */
    public enum Mapping {
        USER_HAS_BOARDS("user_has_boards", USER_ID, BOARD_ID),
        BOARD_HAS_PINS("board_has_pins", BOARD_ID, PIN_ID),
        USER_HAS_PINS("user_has_pins", USER_ID, PIN_ID),
        USER_LIKES_PINS("user_likes_pins", USER_ID, PIN_ID),
        PIN_LIKED_BY_USERS("pin_liked_by_users", PIN_ID, USER_ID),
        /** On the pin's shard, where its comments are allocated too. */
        PIN_HAS_COMMENTS("pin_has_comments", PIN_ID, COMMENT_ID),
        /** A pin's repins, on the parent's shard: their count is the parent's {@code repins}. */
        PIN_HAS_REPINS("pin_has_repins", PIN_ID, REPIN_ID),
        /** The pins carrying an interest, on the interest's shard: its pin page and count. */
        INTEREST_HAS_PINS("interest_has_pins", INTEREST_ID, PIN_ID);

        private final String table;
        private final String from;
        private final String to;

        Mapping(String table, String from, String to) {
            this.table = table;
            this.from = from;
            this.to = to;
        }

        public String table() {
            return table;
        }

        public String from() {
            return from;
        }

        public String to() {
            return to;
        }

        /**
         * board_has_pins, user_has_pins, pin_has_comments, pin_has_repins and interest_has_pins carry {@link #ACTIVE} (0 once the pin or
         * comment is deleted).
         */
        public boolean hasActive() {
            return this == BOARD_HAS_PINS || this == USER_HAS_PINS || this == PIN_HAS_COMMENTS || this == PIN_HAS_REPINS
                    || this == INTEREST_HAS_PINS;
        }

        /** user_likes_pins and pin_liked_by_users: {@link #LIKED} and {@link #VERSION}, last writer wins. */
        public boolean isLike() {
            return this == USER_LIKES_PINS || this == PIN_LIKED_BY_USERS;
        }
    }

    /** Field names of the objects' JSON ({@code data}); ids are JSON numbers there, strings on the HTTP API. */
    public static final class Json {
        private Json() {}

        public static final String ID = "id";
        public static final String CREATED_AT = "createdAt";
        public static final String USERNAME = "username";
        public static final String DISPLAY_NAME = "displayName";
        public static final String OWNER_ID = "ownerId";
        public static final String NAME = "name";
        public static final String DESCRIPTION = "description";
        public static final String BOARD_ID = "boardId";
        public static final String AUTHOR_ID = "authorId";
        public static final String DETAILS = "details";
        public static final String LINK = "link";
        public static final String IMAGE_URL = "imageUrl";
        public static final String PIN_ID = "pinId";
        public static final String TEXT = "text";
        /** pins: a repin's parent (the pin it was saved from); absent on an original pin. */
        public static final String PARENT_PIN_ID = "parentPinId";
        /** pins: the ids of the interests the pin carries (JSON numbers); absent when it carries none. */
        public static final String INTERESTS = "interests";
        /** pins and comments: false once deleted (seed 002's soft delete). */
        public static final String ACTIVE = "active";

        private static final ObjectMapper JSON = new ObjectMapper();

        // ---- the objects' JSON as the materializer writes it: compact, fields absent when not given,
        // ---- createdAt = the create event's occurredAt in epoch milliseconds.

        public static String user(long id, long createdAtMillis, String username, String displayName) {
            ObjectNode o = object(id, createdAtMillis);
            o.put(USERNAME, username);
            putIfGiven(o, DISPLAY_NAME, displayName);
            return o.toString();
        }

        public static String board(long id, long createdAtMillis, long ownerId, String name, String description) {
            ObjectNode o = object(id, createdAtMillis);
            o.put(OWNER_ID, ownerId);
            o.put(NAME, name);
            putIfGiven(o, DESCRIPTION, description);
            return o.toString();
        }

        public static String pin(long id, long createdAtMillis, long boardId, long authorId, String details, String link, String imageUrl) {
            return pin(id, createdAtMillis, boardId, authorId, details, link, imageUrl, null);
        }

        /** {@code parentPinId}: the pin a repin was saved from, null for an original pin (then absent). */
        public static String pin(long id, long createdAtMillis, long boardId, long authorId, String details, String link, String imageUrl,
                                 Long parentPinId) {
            return pin(id, createdAtMillis, boardId, authorId, details, link, imageUrl, parentPinId, java.util.List.of());
        }

        /** {@code interestIds}: the interests the pin carries, in the order given; none leaves {@link #INTERESTS} absent. */
        public static String pin(long id, long createdAtMillis, long boardId, long authorId, String details, String link, String imageUrl,
                                 Long parentPinId, java.util.List<Long> interestIds) {
            ObjectNode o = object(id, createdAtMillis);
            o.put(BOARD_ID, boardId);
            o.put(AUTHOR_ID, authorId);
            o.put(DETAILS, details);
            putIfGiven(o, LINK, link);
            putIfGiven(o, IMAGE_URL, imageUrl);
            if (parentPinId != null) o.put(PARENT_PIN_ID, parentPinId.longValue());
            if (!interestIds.isEmpty()) {
                var interests = o.putArray(INTERESTS);
                interestIds.forEach(interests::add);
            }
            return o.toString();
        }

        /**
         * A pin deleted before its create was applied (topics are not ordered with each other): what the
         * delete knows, inactive. Having no {@link #CREATED_AT} marks it as a placeholder, which the
         * create then fills in, keeping it inactive.
         */
        public static String pinTombstone(long id, long boardId, long authorId) {
            ObjectNode o = JSON.createObjectNode();
            o.put(ID, id);
            o.put(BOARD_ID, boardId);
            o.put(AUTHOR_ID, authorId);
            o.put(ACTIVE, false);
            return o.toString();
        }

        public static String interest(long id, long createdAtMillis, String name) {
            ObjectNode o = object(id, createdAtMillis);
            o.put(NAME, name);
            return o.toString();
        }

        public static String comment(long id, long createdAtMillis, long pinId, long authorId, String text) {
            ObjectNode o = object(id, createdAtMillis);
            o.put(PIN_ID, pinId);
            o.put(AUTHOR_ID, authorId);
            o.put(TEXT, text);
            return o.toString();
        }

        /** A comment deleted before its create was applied: as {@link #pinTombstone}, a placeholder the create fills in. */
        public static String commentTombstone(long id, long pinId, long authorId) {
            ObjectNode o = JSON.createObjectNode();
            o.put(ID, id);
            o.put(PIN_ID, pinId);
            o.put(AUTHOR_ID, authorId);
            o.put(ACTIVE, false);
            return o.toString();
        }

        /** JSON path of a field ({@code $.active}), for JSON_SET and friends. */
        public static String path(String field) {
            return "$." + field;
        }

        private static ObjectNode object(long id, long createdAtMillis) {
            ObjectNode o = JSON.createObjectNode();
            o.put(ID, id);
            o.put(CREATED_AT, createdAtMillis);
            return o;
        }

        private static void putIfGiven(ObjectNode o, String field, String value) {
            if (value != null) o.put(field, value);
        }
    }

    /** The value of {@link #TS} for an event's time (a TIMESTAMP(3): millisecond precision, stored as UTC). */
    public static Instant ts(long occurredAtMillis) {
        return Instant.ofEpochMilli(occurredAtMillis);
    }

    /** The 16-byte version of an event: occurredAt then eventId, big-endian, so byte order is version order. */
    public static byte[] version(long occurredAtMillis, long eventId) {
        return ByteBuffer.allocate(16).putLong(occurredAtMillis).putLong(eventId).array();
    }
}
