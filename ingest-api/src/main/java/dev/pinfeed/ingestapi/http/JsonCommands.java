package dev.pinfeed.ingestapi.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pinfeed.ingestapi.core.FieldRules;
import dev.pinfeed.ingestapi.core.IngestCommand;
import dev.pinfeed.ingestapi.core.IngestCommand.CreateBoard;
import dev.pinfeed.ingestapi.core.IngestCommand.CreateComment;
import dev.pinfeed.ingestapi.core.IngestCommand.CreateInterest;
import dev.pinfeed.ingestapi.core.IngestCommand.FollowInterest;
import dev.pinfeed.ingestapi.core.IngestCommand.UnfollowInterest;
import dev.pinfeed.ingestapi.core.IngestCommand.CreatePin;
import dev.pinfeed.ingestapi.core.IngestCommand.CreateUser;
import dev.pinfeed.ingestapi.core.IngestCommand.DeleteComment;
import dev.pinfeed.ingestapi.core.IngestCommand.DeletePin;
import dev.pinfeed.ingestapi.core.IngestCommand.FollowBoard;
import dev.pinfeed.ingestapi.core.IngestCommand.FollowUser;
import dev.pinfeed.ingestapi.core.IngestCommand.LikePin;
import dev.pinfeed.ingestapi.core.IngestCommand.ReorderBoardPins;
import dev.pinfeed.ingestapi.core.IngestCommand.RepinPin;
import dev.pinfeed.ingestapi.core.IngestCommand.UnfollowBoard;
import dev.pinfeed.ingestapi.core.IngestCommand.UnfollowUser;
import dev.pinfeed.ingestapi.core.IngestCommand.UnlikePin;
import dev.pinfeed.ingestapi.core.IngestRejection;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * JSON bodies ↔ commands, both directions in one place (the server parses, {@code PinfeedHttpClient}
 * writes). Unknown fields are rejected (a typo such as "boardID" must not be
 * silently dropped); IDs are decimal strings (JSON integers are accepted too); JSON null means absent.
 */
public final class JsonCommands {

    private record EventShape(Set<String> fields, Function<Fields, IngestCommand> build) {}

    private static final Map<String, EventShape> EVENTS = new LinkedHashMap<>();

    static {
        EVENTS.put("UserCreated", new EventShape(Set.of("username", "displayName"), JsonCommands::createUser));
        EVENTS.put("BoardCreated", new EventShape(Set.of("ownerId", "name", "description"), JsonCommands::createBoard));
        // With parentPinId a repin: boardId and authorId only (the content and interests are the parent's).
        EVENTS.put("PinCreated", new EventShape(Set.of("boardId", "authorId", "details", "link", "imageUrl", "interestIds", "parentPinId"),
                JsonCommands::createPinOrRepin));
        EVENTS.put("PinDeleted", new EventShape(Set.of("pinId"), f -> new DeletePin(f.id("pinId"))));
        EVENTS.put("UserFollowed", new EventShape(Set.of("userId", "targetUserId"), f -> new FollowUser(f.id("userId"), f.id("targetUserId"))));
        EVENTS.put("UserUnfollowed", new EventShape(Set.of("userId", "targetUserId"), f -> new UnfollowUser(f.id("userId"), f.id("targetUserId"))));
        EVENTS.put("BoardFollowed", new EventShape(Set.of("userId", "boardId"), f -> new FollowBoard(f.id("userId"), f.id("boardId"))));
        EVENTS.put("BoardUnfollowed", new EventShape(Set.of("userId", "boardId"), f -> new UnfollowBoard(f.id("userId"), f.id("boardId"))));
        EVENTS.put("PinLiked", new EventShape(Set.of("userId", "pinId"), f -> new LikePin(f.id("userId"), f.id("pinId"))));
        EVENTS.put("PinUnliked", new EventShape(Set.of("userId", "pinId"), f -> new UnlikePin(f.id("userId"), f.id("pinId"))));
        EVENTS.put("BoardPinsReordered", new EventShape(Set.of("boardId", "pinIds"), JsonCommands::reorder));
        EVENTS.put("CommentCreated", new EventShape(Set.of("pinId", "authorId", "text"), JsonCommands::createComment));
        EVENTS.put("CommentDeleted", new EventShape(Set.of("commentId"), f -> new DeleteComment(f.id("commentId"))));
        EVENTS.put("InterestCreated", new EventShape(Set.of("name"), f -> new CreateInterest(f.string("name", true))));
        EVENTS.put("InterestFollowed", new EventShape(Set.of("userId", "interestId"),
                f -> new FollowInterest(f.id("userId"), f.id("interestId"))));
        EVENTS.put("InterestUnfollowed", new EventShape(Set.of("userId", "interestId"),
                f -> new UnfollowInterest(f.id("userId"), f.id("interestId"))));
    }

    private static final Set<String> PIN_FIELDS = Set.of("boardId", "authorId", "details", "link", "imageUrl", "interestIds");

    private JsonCommands() {}

    /** The event type names /v1/events accepts (and token scopes name). */
    public static Set<String> eventTypes() {
        return EVENTS.keySet();
    }

    /** One element of /v1/events: {@code {"type": "PinCreated", ...fields}}. */
    public static IngestCommand typedEvent(JsonNode event) {
        if (event == null || !event.isObject()) throw IngestRejection.invalid(null, "each event must be a JSON object");
        JsonNode type = event.get("type");
        if (type == null || type.isNull()) throw IngestRejection.invalid("type", "type is required, one of " + EVENTS.keySet());
        if (!type.isTextual()) throw IngestRejection.invalid("type", "type must be a string");
        EventShape shape = EVENTS.get(type.asText());
        if (shape == null) {
            throw IngestRejection.invalid("type", "unknown event type '" + type.asText() + "', expected one of " + EVENTS.keySet());
        }
        return shape.build().apply(new Fields(event, shape.fields(), "type"));
    }

    public static CreateUser createUser(JsonNode body) {
        return createUser(new Fields(body, EVENTS.get("UserCreated").fields(), null));
    }

    public static CreateBoard createBoard(JsonNode body) {
        return createBoard(new Fields(body, EVENTS.get("BoardCreated").fields(), null));
    }

    public static CreatePin createPin(JsonNode body) {
        return createPin(new Fields(body, PIN_FIELDS, null));
    }

    /** POST /v1/interests {"name"}. */
    public static CreateInterest createInterest(JsonNode body) {
        return new CreateInterest(new Fields(body, EVENTS.get("InterestCreated").fields(), null).string("name", true));
    }

    /** POST /v1/pins/{pinId}/repins: the parent comes from the path, the repinner and his board from the body. */
    public static RepinPin repin(long pinId, JsonNode body) {
        Fields f = new Fields(body, Set.of("boardId", "authorId"), null);
        return new RepinPin(pinId, f.id("boardId"), f.id("authorId"));
    }

    /** POST /v1/pins/{pinId}/comments: the pin comes from the path, the author and text from the body. */
    public static CreateComment createComment(long pinId, JsonNode body) {
        Fields f = new Fields(body, Set.of("authorId", "text"), null);
        return new CreateComment(pinId, f.id("authorId"), f.string("text", true));
    }

    /**
     * The fields of {@code command} as its JSON body carries them (ids as decimal strings, absent
     * optionals left out), without {@code type}; what a path names (a pin to delete or comment on, the follower
     * and followee, the board to reorder) is a field here too, as in a typed event of /v1/events.
     */
    public static ObjectNode toJson(IngestCommand command) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        if (command instanceof CreateUser c) {
            n.put("username", c.username());
            if (c.displayName() != null) n.put("displayName", c.displayName());
        } else if (command instanceof CreateBoard c) {
            n.put("ownerId", Long.toString(c.ownerId()));
            n.put("name", c.name());
            if (c.description() != null) n.put("description", c.description());
        } else if (command instanceof CreatePin c) {
            n.put("boardId", Long.toString(c.boardId()));
            n.put("authorId", Long.toString(c.authorId()));
            n.put("details", c.details());
            if (c.link() != null) n.put("link", c.link());
            if (c.imageUrl() != null) n.put("imageUrl", c.imageUrl());
            if (!c.interestIds().isEmpty()) {
                var ids = n.putArray("interestIds");
                c.interestIds().forEach(id -> ids.add(Long.toString(id)));
            }
        } else if (command instanceof CreateInterest c) {
            n.put("name", c.name());
        } else if (command instanceof FollowInterest c) {
            userAnd(n, c.userId(), "interestId", c.interestId());
        } else if (command instanceof UnfollowInterest c) {
            userAnd(n, c.userId(), "interestId", c.interestId());
        } else if (command instanceof RepinPin c) {
            n.put("parentPinId", Long.toString(c.pinId()));
            n.put("boardId", Long.toString(c.boardId()));
            n.put("authorId", Long.toString(c.authorId()));
        } else if (command instanceof DeletePin c) {
            n.put("pinId", Long.toString(c.pinId()));
        } else if (command instanceof CreateComment c) {
            n.put("pinId", Long.toString(c.pinId()));
            n.put("authorId", Long.toString(c.authorId()));
            n.put("text", c.text());
        } else if (command instanceof DeleteComment c) {
            n.put("commentId", Long.toString(c.commentId()));
        } else if (command instanceof FollowUser c) {
            userPair(n, c.userId(), c.targetUserId());
        } else if (command instanceof UnfollowUser c) {
            userPair(n, c.userId(), c.targetUserId());
        } else if (command instanceof FollowBoard c) {
            userAnd(n, c.userId(), "boardId", c.boardId());
        } else if (command instanceof UnfollowBoard c) {
            userAnd(n, c.userId(), "boardId", c.boardId());
        } else if (command instanceof LikePin c) {
            userAnd(n, c.userId(), "pinId", c.pinId());
        } else if (command instanceof UnlikePin c) {
            userAnd(n, c.userId(), "pinId", c.pinId());
        } else if (command instanceof ReorderBoardPins c) {
            n.put("boardId", Long.toString(c.boardId()));
            var ids = n.putArray("pinIds");
            c.pinIds().forEach(id -> ids.add(Long.toString(id)));
        } else {
            throw new IllegalArgumentException("unknown command " + command);
        }
        return n;
    }

    /** {@code command} as one element of /v1/events: {@code {"type": ..., fields}}; {@link #typedEvent} reads it back. */
    public static ObjectNode typedEventJson(IngestCommand command) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("type", command.eventType());
        n.setAll(toJson(command));
        return n;
    }

    private static void userPair(ObjectNode n, long userId, long targetUserId) {
        n.put("userId", Long.toString(userId));
        n.put("targetUserId", Long.toString(targetUserId));
    }

    private static void userAnd(ObjectNode n, long userId, String field, long id) {
        n.put("userId", Long.toString(userId));
        n.put(field, Long.toString(id));
    }

    /** PUT /v1/boards/{boardId}/order: the board comes from the path, the order from the body. */
    public static ReorderBoardPins reorder(long boardId, JsonNode body) {
        Fields f = new Fields(body, Set.of("pinIds"), null);
        return new ReorderBoardPins(boardId, f.ids("pinIds"));
    }

    private static CreateUser createUser(Fields f) {
        return new CreateUser(f.string("username", true), f.string("displayName", false));
    }

    private static CreateBoard createBoard(Fields f) {
        return new CreateBoard(f.id("ownerId"), f.string("name", true), f.string("description", false));
    }

    private static CreatePin createPin(Fields f) {
        return new CreatePin(f.id("boardId"), f.id("authorId"), f.string("details", true), f.string("link", false),
                f.string("imageUrl", false), f.has("interestIds") ? f.ids("interestIds") : List.of());
    }

    private static CreateComment createComment(Fields f) {
        return new CreateComment(f.id("pinId"), f.id("authorId"), f.string("text", true));
    }

    /** A typed PinCreated: a repin when it names parentPinId (then details, link and imageUrl are the parent's, not given). */
    private static IngestCommand createPinOrRepin(Fields f) {
        if (!f.has("parentPinId")) return createPin(f);
        for (String copied : List.of("details", "link", "imageUrl", "interestIds")) {
            if (f.has(copied)) throw IngestRejection.invalid(copied, copied + " is copied from the parent pin; a repin (parentPinId) does not take it");
        }
        return new RepinPin(f.id("parentPinId"), f.id("boardId"), f.id("authorId"), "parentPinId");
    }

    private static ReorderBoardPins reorder(Fields f) {
        return new ReorderBoardPins(f.id("boardId"), f.ids("pinIds"));
    }

    /** Typed access to an object's fields, rejecting unknown ones up front. */
    private static final class Fields {
        private final JsonNode node;

        Fields(JsonNode node, Set<String> allowed, String alsoAllowed) {
            if (node == null || !node.isObject()) throw IngestRejection.invalid(null, "the body must be a JSON object");
            for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!allowed.contains(name) && !name.equals(alsoAllowed)) {
                    throw IngestRejection.invalid(name, "unknown field '" + name + "'; allowed fields are " + allowed);
                }
            }
            this.node = node;
        }

        boolean has(String name) {
            JsonNode v = node.get(name);
            return v != null && !v.isNull();
        }

        String string(String name, boolean required) {
            JsonNode v = node.get(name);
            if (v == null || v.isNull()) {
                if (required) throw IngestRejection.invalid(name, name + " is required");
                return null;
            }
            if (!v.isTextual()) throw IngestRejection.invalid(name, name + " must be a string");
            return v.asText();
        }

        long id(String name) {
            JsonNode v = node.get(name);
            if (v == null || v.isNull()) throw IngestRejection.invalid(name, name + " is required");
            return idValue(name, v);
        }

        List<Long> ids(String name) {
            JsonNode v = node.get(name);
            if (v == null || v.isNull()) throw IngestRejection.invalid(name, name + " is required");
            if (!v.isArray()) throw IngestRejection.invalid(name, name + " must be an array of id strings");
            List<Long> ids = new ArrayList<>(v.size());
            for (int i = 0; i < v.size(); i++) ids.add(idValue(name + "[" + i + "]", v.get(i)));
            return ids;
        }

        private static long idValue(String name, JsonNode v) {
            if (v.isTextual()) return FieldRules.parseId(name, v.asText());
            if (v.isIntegralNumber() && v.canConvertToLong() && v.asLong() >= 0) return v.asLong();
            throw IngestRejection.invalid(name, name + " must be a decimal id string like \"241294492511762325\"");
        }
    }
}
