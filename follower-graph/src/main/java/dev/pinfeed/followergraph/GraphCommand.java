package dev.pinfeed.followergraph;

/**
 * A change to the follower graph, one per domain event. Every command carries its event's
 * {@code eventId} and {@code occurredAt}: together they are the command's {@link Version}, which
 * decides the last writer per edge, so commands may be applied in any order and any number of times.
 * Construction validates; an invalid event never becomes a command.
 */
public sealed interface GraphCommand {

    long eventId();

    /** Event time, UTC epoch milliseconds. */
    long occurredAt();

    default Version version() {
        return new Version(occurredAt(), eventId());
    }

    /** {@code followerId} follows user {@code followeeId} and, through that, every board of his, present and future. */
    record FollowUser(long eventId, long occurredAt, long followerId, long followeeId) implements GraphCommand {
        public FollowUser {
            check(eventId, occurredAt);
            positive("followerId", followerId);
            positive("followeeId", followeeId);
            if (followerId == followeeId) throw new InvalidCommandException("user " + followerId + " cannot follow himself");
        }
    }

    /** Undoes {@link FollowUser}; boards followed on their own stay followed. */
    record UnfollowUser(long eventId, long occurredAt, long followerId, long followeeId) implements GraphCommand {
        public UnfollowUser {
            check(eventId, occurredAt);
            positive("followerId", followerId);
            positive("followeeId", followeeId);
            if (followerId == followeeId) throw new InvalidCommandException("user " + followerId + " cannot unfollow himself");
        }
    }

    /** {@code followerId} follows one board; its owner becomes implicitly followed. */
    record FollowBoard(long eventId, long occurredAt, long followerId, long boardId, long boardOwnerId) implements GraphCommand {
        public FollowBoard {
            check(eventId, occurredAt);
            positive("followerId", followerId);
            positive("boardId", boardId);
            positive("boardOwnerId", boardOwnerId);
            if (followerId == boardOwnerId) throw new InvalidCommandException("user " + followerId + " cannot follow his own board " + boardId);
        }
    }

    /** Undoes {@link FollowBoard}; while the owner is followed explicitly it also records an exception for this board. */
    record UnfollowBoard(long eventId, long occurredAt, long followerId, long boardId, long boardOwnerId) implements GraphCommand {
        public UnfollowBoard {
            check(eventId, occurredAt);
            positive("followerId", followerId);
            positive("boardId", boardId);
            positive("boardOwnerId", boardOwnerId);
            if (followerId == boardOwnerId) throw new InvalidCommandException("user " + followerId + " cannot unfollow his own board " + boardId);
        }
    }

    /** Board {@code boardId} exists and belongs to {@code ownerId} (board → owner and user → boards). */
    record CreateBoard(long eventId, long occurredAt, long boardId, long ownerId) implements GraphCommand {
        public CreateBoard {
            check(eventId, occurredAt);
            positive("boardId", boardId);
            positive("ownerId", ownerId);
        }
    }

    /** {@code followerId} follows interest {@code interestId}: the interest's new pins reach him (its interests pool). */
    record FollowInterest(long eventId, long occurredAt, long followerId, long interestId) implements GraphCommand {
        public FollowInterest {
            check(eventId, occurredAt);
            positive("followerId", followerId);
            positive("interestId", interestId);
        }
    }

    /** Undoes {@link FollowInterest}. */
    record UnfollowInterest(long eventId, long occurredAt, long followerId, long interestId) implements GraphCommand {
        public UnfollowInterest {
            check(eventId, occurredAt);
            positive("followerId", followerId);
            positive("interestId", interestId);
        }
    }

    private static void check(long eventId, long occurredAt) {
        if (eventId == 0) throw new InvalidCommandException("eventId is 0");
        if (occurredAt < 0 || occurredAt > Version.MAX_OCCURRED_AT) {
            throw new InvalidCommandException("occurredAt " + occurredAt + " is outside 0.." + Version.MAX_OCCURRED_AT);
        }
    }

    private static void positive(String field, long id) {
        if (id <= 0) throw new InvalidCommandException(field + " must be positive, was " + id);
    }
}
