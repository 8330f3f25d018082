package dev.pinfeed.graphprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.events.InterestCreated;
import dev.pinfeed.events.InterestFollowed;
import dev.pinfeed.events.InterestUnfollowed;
import dev.pinfeed.followergraph.GraphCommand;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class GraphEventsTest {

    private static final Instant AT = Instant.ofEpochMilli(1_767_225_600_000L);

    @Test
    void interestFollowsAndUnfollowsBecomeInterestEdgeCommands() {
        assertThat(GraphEvents.toCommand(new InterestFollowed(1L, AT, 7L, 7L, 50L)))
                .contains(new GraphCommand.FollowInterest(1L, AT.toEpochMilli(), 7L, 50L));
        assertThat(GraphEvents.toCommand(new InterestUnfollowed(2L, AT, 7L, 7L, 50L)))
                .contains(new GraphCommand.UnfollowInterest(2L, AT.toEpochMilli(), 7L, 50L));
    }

    @Test
    void anInterestsCreationDoesNotBelongOnAGraphTopic() {
        assertThatThrownBy(() -> GraphEvents.toCommand(new InterestCreated(3L, AT, 50L, "woodworking")))
                .isInstanceOf(GraphEvents.UnexpectedEventException.class);
    }
}
