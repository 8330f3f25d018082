package dev.pinfeed.graphprocessor;

import dev.pinfeed.events.BoardCreated;
import dev.pinfeed.events.BoardFollowed;
import dev.pinfeed.events.BoardPinsReordered;
import dev.pinfeed.events.BoardUnfollowed;
import dev.pinfeed.events.InterestFollowed;
import dev.pinfeed.events.InterestUnfollowed;
import dev.pinfeed.events.UserFollowed;
import dev.pinfeed.events.UserUnfollowed;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.InvalidCommandException;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;

/** Domain events → graph commands: the only place that knows which events feed the graph. */
public final class GraphEvents {

    /** A record on a graph topic that the graph has no use for and that does not belong there either. */
    public static final class UnexpectedEventException extends RuntimeException {
        UnexpectedEventException(String message) {
            super(message);
        }
    }

    private GraphEvents() {}

    /**
     * The command for a graph event; empty for an event that shares a graph topic without changing the
     * graph (BoardPinsReordered on the boards topic). Throws {@link InvalidCommandException} for an
     * event that breaks a rule, {@link UnexpectedEventException} for any other event type.
     */
    public static Optional<GraphCommand> toCommand(SpecificRecord event) {
        if (event instanceof UserFollowed e) {
            return Optional.of(new GraphCommand.FollowUser(e.getEventId(), ms(e.getOccurredAt()), e.getFollowerId(), e.getFolloweeId()));
        }
        if (event instanceof UserUnfollowed e) {
            return Optional.of(new GraphCommand.UnfollowUser(e.getEventId(), ms(e.getOccurredAt()), e.getFollowerId(), e.getFolloweeId()));
        }
        if (event instanceof BoardFollowed e) {
            return Optional.of(new GraphCommand.FollowBoard(e.getEventId(), ms(e.getOccurredAt()), e.getFollowerId(), e.getBoardId(),
                    e.getBoardOwnerId()));
        }
        if (event instanceof BoardUnfollowed e) {
            return Optional.of(new GraphCommand.UnfollowBoard(e.getEventId(), ms(e.getOccurredAt()), e.getFollowerId(), e.getBoardId(),
                    e.getBoardOwnerId()));
        }
        if (event instanceof InterestFollowed e) {
            return Optional.of(new GraphCommand.FollowInterest(e.getEventId(), ms(e.getOccurredAt()), e.getFollowerId(), e.getInterestId()));
        }
        if (event instanceof InterestUnfollowed e) {
            return Optional.of(new GraphCommand.UnfollowInterest(e.getEventId(), ms(e.getOccurredAt()), e.getFollowerId(), e.getInterestId()));
        }
        if (event instanceof BoardCreated e) {
            return Optional.of(new GraphCommand.CreateBoard(e.getEventId(), ms(e.getOccurredAt()), e.getBoardId(), e.getOwnerId()));
        }
        if (event instanceof BoardPinsReordered) return Optional.empty();
        throw new UnexpectedEventException("event type " + event.getSchema().getFullName() + " does not belong on a graph topic");
    }

    private static long ms(java.time.Instant at) {
        if (at == null) throw new InvalidCommandException("occurredAt is missing");
        return at.toEpochMilli();
    }
}
