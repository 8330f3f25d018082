package dev.pinfeed.canonicalstore.reads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RecentLivePinsTest {

    /** The store: pins by id, and every batch it was asked for. */
    private final Map<Long, CanonicalPin> stored = new HashMap<>();
    private final List<List<Long>> asked = new ArrayList<>();
    private final LivePins store = ids -> {
        asked.add(List.copyOf(ids));
        Map<Long, CanonicalPin> out = new LinkedHashMap<>();
        for (Long id : ids) if (stored.containsKey(id)) out.put(id, stored.get(id));
        return out;
    };
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final InstantSource clock = () -> Instant.ofEpochMilli(now.get());
    private final CountingCacheListener listener = new CountingCacheListener();

    @Test
    void aPinReadIsAnsweredFromTheProcessUntilItsTimeToLiveRanOutThenReadAgainWithItsChanges() {
        RecentLivePins pins = new RecentLivePins(store, Duration.ofMillis(1_000), 100, clock, listener);
        stored.put(1L, pin(1, 0));
        stored.put(2L, pin(2, 0));

        assertThat(pins.livePins(List.of(1L, 2L))).containsExactly(Map.entry(1L, pin(1, 0)), Map.entry(2L, pin(2, 0)));
        stored.put(1L, pin(1, 5)); // liked meanwhile
        now.addAndGet(999);
        assertThat(pins.livePins(List.of(1L, 2L))).containsEntry(1L, pin(1, 0));
        assertThat(asked).hasSize(1);

        now.addAndGet(1);
        assertThat(pins.livePins(List.of(1L, 2L))).containsEntry(1L, pin(1, 5));
        assertThat(asked).hasSize(2);
        assertThat(listener.counts()).containsEntry("recent_pin hits", 2).containsEntry("recent_pin misses", 4);
    }

    @Test
    void aPinReadAgainUnchangedIsAnsweredAsTheInstanceKeptAndAChangedOneAsItsNewState() {
        RecentLivePins pins = new RecentLivePins(store, Duration.ofSeconds(1), 100, clock, listener);
        stored.put(1L, pin(1, 0));
        stored.put(2L, pin(2, 0));
        Map<Long, CanonicalPin> first = pins.livePins(List.of(1L, 2L));

        stored.put(1L, pin(1, 0)); // the store decodes a new, equal object on every read
        stored.put(2L, pin(2, 3)); // liked meanwhile
        now.addAndGet(1_000);
        Map<Long, CanonicalPin> again = pins.livePins(List.of(1L, 2L));

        assertThat(asked).hasSize(2);
        assertThat(again.get(1L)).isSameAs(first.get(1L));
        assertThat(again.get(2L)).isEqualTo(pin(2, 3)).isSameAs(stored.get(2L));
        now.addAndGet(999);
        assertThat(pins.livePins(List.of(1L, 2L)).get(1L)).as("kept a second from its second read").isSameAs(first.get(1L));
        assertThat(asked).hasSize(2);
    }

    @Test
    void onlyTheMissesAreAskedAndTheAnswerKeepsTheOrderAsked() {
        RecentLivePins pins = new RecentLivePins(store, Duration.ofSeconds(1), 100, clock, listener);
        for (long id = 1; id <= 4; id++) stored.put(id, pin(id, 0));
        pins.livePins(List.of(2L, 4L));

        assertThat(pins.livePins(List.of(1L, 2L, 3L, 1L, 4L)).keySet()).containsExactly(1L, 2L, 3L, 4L);
        assertThat(asked.get(1)).containsExactly(1L, 3L);
    }

    @Test
    void aPinNotLiveIsNotKeptSoOneCreatedSinceIsSeenAtOnce() {
        RecentLivePins pins = new RecentLivePins(store, Duration.ofSeconds(1), 100, clock, listener);
        assertThat(pins.livePins(List.of(7L))).isEmpty();
        stored.put(7L, pin(7, 0));
        assertThat(pins.livePins(List.of(7L))).containsOnlyKeys(7L);
        assertThat(asked).hasSize(2);
    }

    @Test
    void pastItsBoundTheExpiredPinsGoAndAllOfThemWhenNoneHad() {
        RecentLivePins pins = new RecentLivePins(store, Duration.ofSeconds(1), 3, clock, listener);
        for (long id = 1; id <= 6; id++) stored.put(id, pin(id, 0));
        pins.livePins(List.of(1L, 2L));
        now.addAndGet(1_000);
        pins.livePins(List.of(3L, 4L)); // 1 and 2 expired: they go, 3 and 4 stay
        asked.clear();
        assertThat(pins.livePins(List.of(3L, 4L))).hasSize(2);
        assertThat(asked).isEmpty();

        pins.livePins(List.of(5L, 6L)); // nothing expired and over the bound: all go
        asked.clear();
        assertThat(pins.livePins(List.of(3L, 5L))).hasSize(2);
        assertThat(asked).containsExactly(List.of(3L));
    }

    @Test
    void aTimeToLiveOfZeroKeepsNothingAndANegativeOneIsRefused() {
        assertThat(RecentLivePins.over(store, Duration.ZERO, 100, clock, listener)).isSameAs(store);
        assertThatThrownBy(() -> new RecentLivePins(store, Duration.ofMillis(-1), 100, clock, listener)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RecentLivePins(store, Duration.ofSeconds(1), 0, clock, listener)).isInstanceOf(IllegalArgumentException.class);
    }

    private static CanonicalPin pin(long id, long likes) {
        return new CanonicalPin(id, 100, 200, "pin " + id, null, null, Instant.EPOCH, likes, 0, null, 0, List.of());
    }
}
