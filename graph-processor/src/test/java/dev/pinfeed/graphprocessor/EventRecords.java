package dev.pinfeed.graphprocessor;

import dev.pinfeed.events.BoardCreated;
import dev.pinfeed.events.BoardFollowed;
import dev.pinfeed.events.BoardUnfollowed;
import dev.pinfeed.events.UserFollowed;
import dev.pinfeed.events.UserUnfollowed;
import dev.pinfeed.followergraph.GraphCommand;
import java.time.Instant;
import org.apache.avro.specific.SpecificRecord;

/** Graph commands back as the domain events producers publish. */
public final class EventRecords {

    private EventRecords() {}

    public static SpecificRecord of(GraphCommand c) {
        Instant at = Instant.ofEpochMilli(c.occurredAt());
        if (c instanceof GraphCommand.FollowUser f) return new UserFollowed(f.eventId(), at, f.followerId(), f.followerId(), f.followeeId());
        if (c instanceof GraphCommand.UnfollowUser u) return new UserUnfollowed(u.eventId(), at, u.followerId(), u.followerId(), u.followeeId());
        if (c instanceof GraphCommand.FollowBoard f) {
            return new BoardFollowed(f.eventId(), at, f.followerId(), f.followerId(), f.boardId(), f.boardOwnerId());
        }
        if (c instanceof GraphCommand.UnfollowBoard u) {
            return new BoardUnfollowed(u.eventId(), at, u.followerId(), u.followerId(), u.boardId(), u.boardOwnerId());
        }
        GraphCommand.CreateBoard b = (GraphCommand.CreateBoard) c;
        return new BoardCreated(b.eventId(), at, b.ownerId(), b.boardId(), b.ownerId(), "board " + b.boardId(), null);
    }
}
