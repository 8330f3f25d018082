package dev.pinfeed.ingestapi.core;

import static dev.pinfeed.idallocator.ObjectType.BOARD;
import static dev.pinfeed.idallocator.ObjectType.COMMENT;
import static dev.pinfeed.idallocator.ObjectType.INTEREST;
import static dev.pinfeed.idallocator.ObjectType.PIN;
import static dev.pinfeed.idallocator.ObjectType.USER;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A producer's request to change the social graph, one per domain event type. Every record
 * validates its fields on construction with {@link FieldRules}, so an invalid command cannot
 * exist, whether it came from JSON over HTTP or from the Java client.
 */
public sealed interface IngestCommand {

    /** The Avro event this command publishes; also the token scope that allows it. */
    String eventType();

    /** Ids of existing objects this command refers to, with the field naming each (for 404s). */
    List<Reference> references();

    /**
     * An id the command refers to, which must name a known object; with {@code live} also one that is not
     * deleted (a write that adds to the object: a like, a place in a board's order, a repin, a comment).
     */
    record Reference(String field, long id, boolean live) {
        public Reference(String field, long id) {
            this(field, id, false);
        }

        public static Reference live(String field, long id) {
            return new Reference(field, id, true);
        }
    }

    record CreateUser(String username, String displayName) implements IngestCommand {
        public CreateUser {
            username = FieldRules.username("username", username);
            displayName = FieldRules.optionalText("displayName", displayName, FieldRules.DISPLAY_NAME_MAX, false);
        }
        public String eventType() { return "UserCreated"; }
        public List<Reference> references() { return List.of(); }
    }

    record CreateBoard(long ownerId, String name, String description) implements IngestCommand {
        public CreateBoard {
            FieldRules.id("ownerId", ownerId, USER);
            name = FieldRules.text("name", name, FieldRules.BOARD_NAME_MAX, false);
            description = FieldRules.optionalText("description", description, FieldRules.BOARD_DESCRIPTION_MAX, true);
        }
        public String eventType() { return "BoardCreated"; }
        public List<Reference> references() { return List.of(new Reference("ownerId", ownerId)); }
    }

    /**
     * A new pin; {@code interestIds} (null = none): at most {@link FieldRules#PIN_INTERESTS_MAX} distinct known interests, each named
     * {@code interestIds[i]} in problems.
     */
    record CreatePin(long boardId, long authorId, String details, String link, String imageUrl, List<Long> interestIds)
            implements IngestCommand {
        public CreatePin {
            FieldRules.id("boardId", boardId, BOARD);
            FieldRules.id("authorId", authorId, USER);
            details = FieldRules.text("details", details, FieldRules.PIN_DETAILS_MAX, true);
            link = FieldRules.optionalUrl("link", link);
            imageUrl = FieldRules.optionalUrl("imageUrl", imageUrl);
            interestIds = interestIds == null ? List.of() : interestIds;
            if (interestIds.size() > FieldRules.PIN_INTERESTS_MAX) {
                throw IngestRejection.invalid("interestIds", "interestIds has " + interestIds.size() + " entries, at most "
                        + FieldRules.PIN_INTERESTS_MAX + " allowed");
            }
            Set<Long> seen = new HashSet<>();
            for (int i = 0; i < interestIds.size(); i++) {
                Long id = interestIds.get(i);
                String field = "interestIds[" + i + "]";
                if (id == null) throw IngestRejection.invalid(field, field + " is null");
                FieldRules.id(field, id, INTEREST);
                if (!seen.add(id)) throw IngestRejection.invalid(field, field + " repeats interest " + id);
            }
            interestIds = List.copyOf(interestIds);
        }
        /** A pin without interests. */
        public CreatePin(long boardId, long authorId, String details, String link, String imageUrl) {
            this(boardId, authorId, details, link, imageUrl, List.of());
        }
        public String eventType() { return "PinCreated"; }
        public List<Reference> references() {
            List<Reference> refs = new ArrayList<>(List.of(new Reference("boardId", boardId), new Reference("authorId", authorId)));
            for (int i = 0; i < interestIds.size(); i++) refs.add(new Reference("interestIds[" + i + "]", interestIds.get(i)));
            return refs;
        }
    }

    /** A new interest (a topic pins carry and users follow), named by a slug ({@link FieldRules#interestName}) no other interest has. */
    record CreateInterest(String name) implements IngestCommand {
        public CreateInterest {
            name = FieldRules.interestName("name", name);
        }
        public String eventType() { return "InterestCreated"; }
        public List<Reference> references() { return List.of(); }
    }

    record FollowInterest(long userId, long interestId) implements IngestCommand {
        public FollowInterest {
            checkUserAnd("interestId", interestId, INTEREST, userId);
        }
        public String eventType() { return "InterestFollowed"; }
        public List<Reference> references() { return userAnd("interestId", interestId, userId); }
    }

    record UnfollowInterest(long userId, long interestId) implements IngestCommand {
        public UnfollowInterest {
            checkUserAnd("interestId", interestId, INTEREST, userId);
        }
        public String eventType() { return "InterestUnfollowed"; }
        public List<Reference> references() { return userAnd("interestId", interestId, userId); }
    }

    /**
     * A repin (Pinterest's save) of {@code pinId}: a new pin on {@code boardId}, which must be {@code authorId}'s (the
     * repinner's), keeping the pin as its parent. Published as a PinCreated with {@code parentPinId}; the parent must
     * be live. {@code parentField} names the parent in problems: {@code pinId} on the route (its path), {@code parentPinId}
     * in a typed PinCreated of /v1/events.
     */
    record RepinPin(long pinId, long boardId, long authorId, String parentField) implements IngestCommand {
        public RepinPin {
            FieldRules.id(parentField, pinId, PIN);
            FieldRules.id("boardId", boardId, BOARD);
            FieldRules.id("authorId", authorId, USER);
        }
        /** The route's repin: the parent is the path's {@code pinId}. */
        public RepinPin(long pinId, long boardId, long authorId) {
            this(pinId, boardId, authorId, "pinId");
        }
        public String eventType() { return "PinCreated"; }
        public List<Reference> references() {
            return List.of(Reference.live(parentField, pinId), new Reference("boardId", boardId), new Reference("authorId", authorId));
        }
    }

    record DeletePin(long pinId) implements IngestCommand {
        public DeletePin {
            FieldRules.id("pinId", pinId, PIN);
        }
        public String eventType() { return "PinDeleted"; }
        /** Not live: deleting a deleted pin is accepted and published again (a retry after a lost answer). */
        public List<Reference> references() { return List.of(new Reference("pinId", pinId)); }
    }

    /**
     * A comment on a pin. The pin must be known to the object directory and not deleted (a live reference); the
     * comment's id is allocated on the pin's shard.
     */
    record CreateComment(long pinId, long authorId, String text) implements IngestCommand {
        public CreateComment {
            FieldRules.id("pinId", pinId, PIN);
            FieldRules.id("authorId", authorId, USER);
            text = FieldRules.text("text", text, FieldRules.COMMENT_TEXT_MAX, true);
        }
        public String eventType() { return "CommentCreated"; }
        public List<Reference> references() {
            return List.of(Reference.live("pinId", pinId), new Reference("authorId", authorId));
        }
    }

    /** Deleting a comment again publishes another CommentDeleted, which the store applies as a no-op. */
    record DeleteComment(long commentId) implements IngestCommand {
        public DeleteComment {
            FieldRules.id("commentId", commentId, COMMENT);
        }
        public String eventType() { return "CommentDeleted"; }
        public List<Reference> references() { return List.of(new Reference("commentId", commentId)); }
    }

    record FollowUser(long userId, long targetUserId) implements IngestCommand {
        public FollowUser {
            checkUserPair(userId, targetUserId);
        }
        public String eventType() { return "UserFollowed"; }
        public List<Reference> references() { return userPair(userId, targetUserId); }
    }

    record UnfollowUser(long userId, long targetUserId) implements IngestCommand {
        public UnfollowUser {
            checkUserPair(userId, targetUserId);
        }
        public String eventType() { return "UserUnfollowed"; }
        public List<Reference> references() { return userPair(userId, targetUserId); }
    }

    record FollowBoard(long userId, long boardId) implements IngestCommand {
        public FollowBoard {
            checkUserAnd("boardId", boardId, BOARD, userId);
        }
        public String eventType() { return "BoardFollowed"; }
        public List<Reference> references() { return userAnd("boardId", boardId, userId); }
    }

    record UnfollowBoard(long userId, long boardId) implements IngestCommand {
        public UnfollowBoard {
            checkUserAnd("boardId", boardId, BOARD, userId);
        }
        public String eventType() { return "BoardUnfollowed"; }
        public List<Reference> references() { return userAnd("boardId", boardId, userId); }
    }

    record LikePin(long userId, long pinId) implements IngestCommand {
        public LikePin {
            checkUserAnd("pinId", pinId, PIN, userId);
        }
        public String eventType() { return "PinLiked"; }
        public List<Reference> references() { return List.of(new Reference("userId", userId), Reference.live("pinId", pinId)); }
    }

    record UnlikePin(long userId, long pinId) implements IngestCommand {
        public UnlikePin {
            checkUserAnd("pinId", pinId, PIN, userId);
        }
        public String eventType() { return "PinUnliked"; }
        /** Not live: withdrawing a like takes nothing new from a deleted pin. */
        public List<Reference> references() { return userAnd("pinId", pinId, userId); }
    }

    /** The user-specified order of a board's pins; every pin must be on that board. */
    record ReorderBoardPins(long boardId, List<Long> pinIds) implements IngestCommand {
        public ReorderBoardPins {
            FieldRules.id("boardId", boardId, BOARD);
            if (pinIds == null) throw IngestRejection.invalid("pinIds", "pinIds is required");
            if (pinIds.isEmpty()) throw IngestRejection.invalid("pinIds", "pinIds must name at least one pin");
            if (pinIds.size() > FieldRules.REORDER_MAX_PINS) {
                throw IngestRejection.invalid("pinIds", "pinIds has " + pinIds.size() + " entries, at most "
                        + FieldRules.REORDER_MAX_PINS + " allowed");
            }
            Set<Long> seen = new HashSet<>();
            for (int i = 0; i < pinIds.size(); i++) {
                Long pinId = pinIds.get(i);
                String field = "pinIds[" + i + "]";
                if (pinId == null) throw IngestRejection.invalid(field, field + " is null");
                FieldRules.id(field, pinId, PIN);
                if (!seen.add(pinId)) throw IngestRejection.invalid(field, field + " repeats pin " + pinId);
            }
            pinIds = List.copyOf(pinIds);
        }
        public String eventType() { return "BoardPinsReordered"; }
        public List<Reference> references() {
            List<Reference> refs = new ArrayList<>(pinIds.size() + 1);
            refs.add(new Reference("boardId", boardId));
            for (int i = 0; i < pinIds.size(); i++) refs.add(Reference.live("pinIds[" + i + "]", pinIds.get(i)));
            return refs;
        }
    }

    /** A user acting on one object of {@code type} named by {@code field}. */
    private static void checkUserAnd(String field, long objectId, dev.pinfeed.idallocator.ObjectType type, long userId) {
        FieldRules.id("userId", userId, USER);
        FieldRules.id(field, objectId, type);
    }

    private static List<Reference> userAnd(String field, long objectId, long userId) {
        return List.of(new Reference("userId", userId), new Reference(field, objectId));
    }

    private static void checkUserPair(long userId, long targetUserId) {
        FieldRules.id("userId", userId, USER);
        FieldRules.id("targetUserId", targetUserId, USER);
        if (userId == targetUserId) throw IngestRejection.invalid("targetUserId", "a user cannot follow themselves");
    }

    private static List<Reference> userPair(long userId, long targetUserId) {
        return List.of(new Reference("userId", userId), new Reference("targetUserId", targetUserId));
    }
}
