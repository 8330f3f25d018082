package dev.pinfeed.materializer;

import static dev.pinfeed.canonicalstore.CanonicalIds.check;

import dev.pinfeed.canonicalstore.CanonicalChange;
import dev.pinfeed.canonicalstore.CanonicalChange.DeactivateMapping;
import dev.pinfeed.canonicalstore.CanonicalChange.DeleteComment;
import dev.pinfeed.canonicalstore.CanonicalChange.DeletePin;
import dev.pinfeed.canonicalstore.CanonicalChange.PutLike;
import dev.pinfeed.canonicalstore.CanonicalChange.PutMapping;
import dev.pinfeed.canonicalstore.CanonicalChange.PutObject;
import dev.pinfeed.canonicalstore.CanonicalChange.ReorderBoard;
import dev.pinfeed.canonicalstore.CanonicalLayout;
import dev.pinfeed.canonicalstore.CanonicalLayout.Json;
import dev.pinfeed.canonicalstore.CanonicalLayout.Mapping;
import dev.pinfeed.canonicalstore.CanonicalRef;
import dev.pinfeed.events.BoardCreated;
import dev.pinfeed.events.BoardPinsReordered;
import dev.pinfeed.events.CommentCreated;
import dev.pinfeed.events.CommentDeleted;
import dev.pinfeed.events.InterestCreated;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinDeleted;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.events.PinUnliked;
import dev.pinfeed.events.UserCreated;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.idallocator.InvalidIdException;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.processorruntime.RejectedRecordException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * The only place that knows what each event means for the canonical store: the changes it makes and
 * the rows it needs to exist first (a pin's board, a like's or comment's pin, a reordered board and its
 * listed pins' mapping rows). Pure: no store, no clock. The materializer and the verifier's reference model
 * both plan with it.
 */
public final class EventPlanner {

    /** What one event does: its changes, and the rows that must exist before they apply. */
    public record Plan(List<CanonicalChange> changes, List<CanonicalRef> needs) {
        public Plan {
            changes = List.copyOf(changes);
            needs = List.copyOf(needs);
        }
    }

    /**
     * @throws RejectedRecordException {@link DeadLetters#UNEXPECTED_EVENT} for an event the canonical
     *         store does not take, {@link DeadLetters#INVALID} for ids of the wrong type or shape
     */
    public Plan plan(SpecificRecord event) {
        try {
            return planChecked(event);
        } catch (InvalidIdException e) {
            throw new RejectedRecordException(DeadLetters.INVALID, event.getSchema().getName() + ": " + e.getMessage());
        }
    }

    private static Plan planChecked(SpecificRecord event) {
        if (event instanceof UserCreated e) {
            long user = check(e.getUserId(), ObjectType.USER, "userId");
            long at = e.getOccurredAt().toEpochMilli();
            return new Plan(List.of(new PutObject(CanonicalLayout.USERS, user, Json.user(user, at, e.getUsername(), e.getDisplayName()), at)),
                    List.of());
        }
        if (event instanceof BoardCreated e) {
            long board = check(e.getBoardId(), ObjectType.BOARD, "boardId");
            long owner = check(e.getOwnerId(), ObjectType.USER, "ownerId");
            long at = e.getOccurredAt().toEpochMilli();
            return new Plan(List.of(
                    new PutObject(CanonicalLayout.BOARDS, board, Json.board(board, at, owner, e.getName(), e.getDescription()), at),
                    new PutMapping(Mapping.USER_HAS_BOARDS, owner, board, at)), List.of());
        }
        if (event instanceof PinCreated e) {
            long pin = check(e.getPinId(), ObjectType.PIN, "pinId");
            long board = check(e.getBoardId(), ObjectType.BOARD, "boardId");
            long author = check(e.getAuthorId(), ObjectType.USER, "authorId");
            long at = e.getOccurredAt().toEpochMilli();
            Long parent = e.getParentPinId() == null ? null : check(e.getParentPinId(), ObjectType.PIN, "parentPinId");
            List<Long> interests = new ArrayList<>();
            for (long interest : e.getInterestIds()) {
                if (!interests.contains(interest)) interests.add(check(interest, ObjectType.INTEREST, "interestIds"));
            }
            List<CanonicalChange> changes = new ArrayList<>(List.of(
                    new PutObject(CanonicalLayout.PINS, pin, Json.pin(pin, at, board, author, e.getDetails(), e.getLink(), e.getImageUrl(), parent,
                            interests), at),
                    new PutMapping(Mapping.BOARD_HAS_PINS, board, pin, at),
                    new PutMapping(Mapping.USER_HAS_PINS, author, pin, at)));
            // A repin counts towards its parent's repins: a row inserted if absent, so a replay counts it once. It needs
            // no parent row (the count is read from these rows alone), so a repin applied before its parent waits for nothing.
            if (parent != null) changes.add(new PutMapping(Mapping.PIN_HAS_REPINS, parent, pin, at));
            // The same for each interest it carries: a row on the interest's shard, inserted if absent, waiting for nothing.
            for (long interest : interests) changes.add(new PutMapping(Mapping.INTEREST_HAS_PINS, interest, pin, at));
            return new Plan(changes, List.of(CanonicalRef.object(CanonicalLayout.BOARDS, board)));
        }
        if (event instanceof InterestCreated e) {
            long interest = check(e.getInterestId(), ObjectType.INTEREST, "interestId");
            long at = e.getOccurredAt().toEpochMilli();
            return new Plan(List.of(new PutObject(CanonicalLayout.INTERESTS, interest, Json.interest(interest, at, e.getName()), at)), List.of());
        }
        if (event instanceof PinDeleted e) {
            long pin = check(e.getPinId(), ObjectType.PIN, "pinId");
            long board = check(e.getBoardId(), ObjectType.BOARD, "boardId");
            long author = check(e.getAuthorId(), ObjectType.USER, "authorId");
            long at = e.getOccurredAt().toEpochMilli();
            // No reference needed: a delete that comes first leaves a tombstone the create cannot revive.
            List<CanonicalChange> changes = new ArrayList<>(List.of(
                    new DeletePin(pin, board, author, at),
                    new DeactivateMapping(Mapping.BOARD_HAS_PINS, board, pin, at),
                    new DeactivateMapping(Mapping.USER_HAS_PINS, author, pin, at)));
            for (long interest : e.getInterestIds()) {
                DeactivateMapping off = new DeactivateMapping(Mapping.INTEREST_HAS_PINS, check(interest, ObjectType.INTEREST, "interestIds"), pin, at);
                if (!changes.contains(off)) changes.add(off);
            }
            return new Plan(changes, List.of());
        }
        if (event instanceof PinLiked e) {
            return like(e.getUserId(), e.getPinId(), true, e.getOccurredAt().toEpochMilli(), e.getEventId());
        }
        if (event instanceof PinUnliked e) {
            return like(e.getUserId(), e.getPinId(), false, e.getOccurredAt().toEpochMilli(), e.getEventId());
        }
        if (event instanceof CommentCreated e) {
            long comment = check(e.getCommentId(), ObjectType.COMMENT, "commentId");
            long pin = check(e.getPinId(), ObjectType.PIN, "pinId");
            long author = check(e.getAuthorId(), ObjectType.USER, "authorId");
            long at = e.getOccurredAt().toEpochMilli();
            // Needs its pin, as a like does: a comment whose pin never comes is dead-lettered, not shown under nothing.
            return new Plan(List.of(
                    new PutObject(CanonicalLayout.COMMENTS, comment, Json.comment(comment, at, pin, author, e.getText()), at),
                    new PutMapping(Mapping.PIN_HAS_COMMENTS, pin, comment, at)),
                    List.of(CanonicalRef.object(CanonicalLayout.PINS, pin)));
        }
        if (event instanceof CommentDeleted e) {
            long comment = check(e.getCommentId(), ObjectType.COMMENT, "commentId");
            long pin = check(e.getPinId(), ObjectType.PIN, "pinId");
            long author = check(e.getAuthorId(), ObjectType.USER, "authorId");
            long at = e.getOccurredAt().toEpochMilli();
            // As PinDeleted: no reference needed, a delete that comes first leaves a tombstone the create cannot revive.
            return new Plan(List.of(
                    new DeleteComment(comment, pin, author, at),
                    new DeactivateMapping(Mapping.PIN_HAS_COMMENTS, pin, comment, at)), List.of());
        }
        if (event instanceof BoardPinsReordered e) {
            long board = check(e.getBoardId(), ObjectType.BOARD, "boardId");
            List<CanonicalRef> needs = new ArrayList<>();
            needs.add(CanonicalRef.object(CanonicalLayout.BOARDS, board));
            ReorderBoard reorder = new ReorderBoard(board, e.getPinIds(), e.getOccurredAt().toEpochMilli(), e.getEventId());
            // Every listed pin's row must be there, or its place would be lost when its create arrives later.
            for (long pin : reorder.pinIds()) needs.add(CanonicalRef.mapping(Mapping.BOARD_HAS_PINS, board, check(pin, ObjectType.PIN, "pinIds")));
            return new Plan(List.of(reorder), needs);
        }
        throw new RejectedRecordException(DeadLetters.UNEXPECTED_EVENT,
                event.getSchema().getFullName() + " is not an event of the canonical store");
    }

    private static Plan like(long userId, long pinId, boolean liked, long at, long eventId) {
        long user = check(userId, ObjectType.USER, "userId");
        long pin = check(pinId, ObjectType.PIN, "pinId");
        return new Plan(List.of(new PutLike(user, pin, liked, at, eventId)), List.of(CanonicalRef.object(CanonicalLayout.PINS, pin)));
    }
}
