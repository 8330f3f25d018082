package dev.pinfeed.operations.replay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PartitionPlanTest {

    @Test
    void aReplayToTheEndMovesTheGroupBackAndCountsWhatItAppliesAgain() {
        PartitionPlan p = PartitionPlan.of("g", "t", 0, 100, 900, 800, 150, -1);
        assertThat(p.target()).isEqualTo(150);
        assertThat(p.end()).isEqualTo(900);
        assertThat(p.records()).isEqualTo(750);
        assertThat(p.moves()).isTrue();
    }

    @Test
    void aTargetIsClampedToTheLogAndNeverAheadOfTheGroup() {
        assertThat(PartitionPlan.of("g", "t", 0, 100, 900, 800, 0, -1).target()).as("below the log start").isEqualTo(100);
        PartitionPlan ahead = PartitionPlan.of("g", "t", 0, 100, 900, 300, 500, -1);
        assertThat(ahead.target()).as("past the group's position: skipping is never a replay").isEqualTo(300);
        assertThat(ahead.moves()).isFalse();
        assertThat(PartitionPlan.of("g", "t", 0, 0, 900, -1, 5_000, -1).target()).as("no committed offset, past the end").isEqualTo(900);
    }

    @Test
    void aBoundedRangeIgnoresTheGroupAndEndsWithinTheLog() {
        PartitionPlan p = PartitionPlan.of("g", "t", 0, 0, 900, 300, 500, 700);
        assertThat(p.target()).as("a range is applied beside the group, which keeps its offset").isEqualTo(500);
        assertThat(p.end()).isEqualTo(700);
        assertThat(p.records()).isEqualTo(200);
        assertThat(PartitionPlan.of("g", "t", 0, 0, 900, 300, 500, 5_000).end()).isEqualTo(900);
        assertThat(PartitionPlan.of("g", "t", 0, 0, 900, 300, 500, 100).records()).as("an empty range").isZero();
    }
}
