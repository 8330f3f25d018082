package dev.pinfeed.feedstore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.feedstore.CelebrityPins.RecentPin;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What every {@link CelebrityPins} does; run against the in-memory store (unit) and Redis (IT). Stores keep {@link #MAX} pins per author. */
public abstract class CelebrityPinsContract {

    protected static final int MAX = 5;
    private static final long T = 1_767_225_600_000L;

    /** A store keeping {@link #MAX} pins per author, empty for the ids {@link #freshId} gives. */
    protected abstract CelebrityPins store();

    protected abstract long freshId();

    @Test
    void aRecordedPinIsReadBackWithItsAuthorBoardAndTimeAndItsAuthorIsACelebrity() {
        long author = freshId();
        RecentPin pin = new RecentPin(freshId(), author, freshId(), T);
        store().record(pin);
        assertThat(store().recent(List.of(author), 0)).containsExactly(Map.entry(author, List.of(pin)));
        assertThat(store().celebrities()).contains(author);
    }

    @Test
    void aReplayedRecordAddsNothing() {
        long author = freshId();
        RecentPin pin = new RecentPin(freshId(), author, freshId(), T);
        store().record(pin);
        store().record(pin);
        assertThat(store().recent(List.of(author), 0).get(author)).containsExactly(pin);
    }

    @Test
    void pinsComeNewestFirstFromTheGivenTimeOnAndOnlyTheNewestMaxAreKept() {
        long author = freshId();
        long board = freshId();
        long first = freshId();
        for (int i = 0; i < MAX + 3; i++) store().record(new RecentPin(first + i, author, board, T + i * 1000L));
        List<RecentPin> kept = store().recent(List.of(author), 0).get(author);
        assertThat(kept).extracting(RecentPin::pinId).containsExactly(first + 7, first + 6, first + 5, first + 4, first + 3);
        assertThat(store().recent(List.of(author), T + 6000).get(author)).extracting(RecentPin::pinId).containsExactly(first + 7, first + 6);
        assertThat(store().recent(List.of(author), T + 8000)).doesNotContainKey(author);
    }

    @Test
    void aRemovedPinIsNotReadAndARemoveOfAnUnknownPinChangesNothing() {
        long author = freshId();
        RecentPin kept = new RecentPin(freshId(), author, freshId(), T);
        RecentPin gone = new RecentPin(freshId(), author, freshId(), T + 1);
        store().record(kept);
        store().record(gone);
        store().remove(author, gone.pinId());
        store().remove(author, gone.pinId());
        store().remove(freshId(), freshId());
        assertThat(store().recent(List.of(author), 0).get(author)).containsExactly(kept);
    }

    @Test
    void aReadOfManyAuthorsLeavesOutThoseWithoutPins() {
        long a = freshId();
        long b = freshId();
        long none = freshId();
        RecentPin pa = new RecentPin(freshId(), a, freshId(), T);
        RecentPin pb = new RecentPin(freshId(), b, freshId(), T + 5);
        store().record(pa);
        store().record(pb);
        assertThat(store().recent(List.of(a, none, b, a), 0)).containsOnly(Map.entry(a, List.of(pa)), Map.entry(b, List.of(pb)));
        assertThat(store().recent(List.of(), 0)).isEmpty();
        assertThat(store().celebrities()).contains(a, b).doesNotContain(none);
    }
}
