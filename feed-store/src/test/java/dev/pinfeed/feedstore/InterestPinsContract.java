package dev.pinfeed.feedstore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.feedstore.CelebrityPins.RecentPin;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What every {@link InterestPins} does; run against the in-memory store (unit) and Redis (IT). Stores keep {@link #MAX} pins per interest. */
public abstract class InterestPinsContract {

    protected static final int MAX = 4;
    private static final long T = 1_767_225_600_000L;

    /** A store keeping {@link #MAX} pins per interest, empty for the ids {@link #freshId} gives. */
    protected abstract InterestPins store();

    protected abstract long freshId();

    @Test
    void aRecordedPinIsReadBackWithItsAuthorBoardAndTimeOnlyUnderItsInterestWhichIsPopular() {
        long interest = freshId();
        long other = freshId();
        RecentPin pin = new RecentPin(freshId(), freshId(), freshId(), T);
        store().record(interest, pin);
        store().record(interest, pin);
        assertThat(store().recent(List.of(interest, other, interest), 0, MAX)).containsExactly(Map.entry(interest, List.of(pin)));
        assertThat(store().popular()).contains(interest).doesNotContain(other);
    }

    @Test
    void pinsComeNewestFirstFromTheGivenTimeOnAtMostAsManyAsAskedAndOnlyTheNewestMaxAreKept() {
        long interest = freshId();
        long first = freshId();
        for (int i = 0; i < MAX + 2; i++) store().record(interest, new RecentPin(first + i, freshId(), freshId(), T + i * 1000L));
        assertThat(store().recent(List.of(interest), 0, MAX).get(interest)).extracting(RecentPin::pinId)
                .containsExactly(first + 5, first + 4, first + 3, first + 2);
        assertThat(store().recent(List.of(interest), T + 4000, MAX).get(interest)).extracting(RecentPin::pinId).containsExactly(first + 5, first + 4);
        assertThat(store().recent(List.of(interest), 0, 3).get(interest)).as("the newest 3").extracting(RecentPin::pinId)
                .containsExactly(first + 5, first + 4, first + 3);
        assertThat(store().recent(List.of(interest), T + 3000, 1).get(interest)).extracting(RecentPin::pinId).containsExactly(first + 5);
        assertThat(store().recent(List.of(interest), T + 6000, MAX)).isEmpty();
    }

    @Test
    void aRemovedPinLeavesOnlyTheInterestItWasRemovedFrom() {
        long a = freshId();
        long b = freshId();
        RecentPin kept = new RecentPin(freshId(), freshId(), freshId(), T);
        RecentPin gone = new RecentPin(freshId(), freshId(), freshId(), T + 1);
        store().record(a, kept);
        store().record(a, gone);
        store().record(b, gone);
        store().remove(a, gone.pinId());
        store().remove(a, gone.pinId());
        store().remove(freshId(), freshId());
        assertThat(store().recent(List.of(a, b), 0, MAX)).containsOnly(Map.entry(a, List.of(kept)), Map.entry(b, List.of(gone)));
    }
}
