package dev.pinfeed.fanoutstreams.related;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A user's actions per minute of their own time: the bound, the next minute, late actions, other users. */
class ActionBudgetTest {

    private static final long MINUTE = 29_453_760L * 60_000; // the start of a minute in 2026

    @Test
    void aUserGetsHisBudgetInAMinuteAndAFreshOneInTheNext() {
        ActionBudget budget = new ActionBudget(3);
        assertThat(budget.tryTake(7, MINUTE)).isTrue();
        assertThat(budget.tryTake(7, MINUTE + 10_000)).isTrue();
        assertThat(budget.tryTake(7, MINUTE + 59_999)).isTrue();
        assertThat(budget.tryTake(7, MINUTE + 59_999)).as("the fourth in the minute").isFalse();
        assertThat(budget.tryTake(7, MINUTE + 30_000)).isFalse();
        assertThat(budget.shed()).isEqualTo(2);
        assertThat(budget.tryTake(7, MINUTE + 60_000)).as("the next minute").isTrue();
        assertThat(budget.tryTake(7, MINUTE + 60_001)).isTrue();
        assertThat(budget.tryTake(7, MINUTE + 60_002)).isTrue();
        assertThat(budget.tryTake(7, MINUTE + 60_003)).isFalse();
        assertThat(budget.shed()).isEqualTo(3);
    }

    @Test
    void usersAreCountedApartAndALateActionIsLetThrough() {
        ActionBudget budget = new ActionBudget(1);
        for (long user = 1; user <= 1_000; user++) assertThat(budget.tryTake(user, MINUTE)).as("user %d's first", user).isTrue();
        long overBudget = 0;
        for (long user = 1; user <= 1_000; user++) if (!budget.tryTake(user, MINUTE + 1)) overBudget++;
        assertThat(overBudget).as("each user's second in the minute: shed unless another user took his slot").isGreaterThan(990);
        assertThat(budget.tryTake(5, MINUTE + 120_000)).isTrue();
        assertThat(budget.tryTake(5, MINUTE)).as("a minute no longer counted").isTrue();
        assertThat(budget.tryTake(5, MINUTE + 120_001)).isFalse();
    }

    @Test
    void aBudgetOfNothingIsRefused() {
        assertThatThrownBy(() -> new ActionBudget(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RelatedSettings.defaults().withMaxActionsPerMinute(0))
                .hasMessageContaining("related.max-actions-per-minute");
    }
}
