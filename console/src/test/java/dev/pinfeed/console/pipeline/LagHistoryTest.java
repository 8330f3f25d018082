package dev.pinfeed.console.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.console.pipeline.PipelineSnapshot.LagPoint;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LagHistoryTest {

    private static final Instant T0 = Instant.parse("2026-11-28T20:00:00Z");
    private final LagHistory history = new LagHistory(Duration.ofMinutes(10), 1000);

    @Test
    void keepsEachGroupsSamplesOldestFirst() {
        history.record(T0, Map.of("a", 5L, "b", 1L));
        history.record(T0.plusSeconds(2), Map.of("a", 3L, "b", 0L));

        assertThat(history.of("a")).containsExactly(new LagPoint("2026-11-28T20:00:00Z", 5), new LagPoint("2026-11-28T20:00:02Z", 3));
        assertThat(history.of("b")).extracting(LagPoint::lag).containsExactly(1L, 0L);
        assertThat(history.groups()).containsExactly("a", "b");
    }

    @Test
    void keepsOnlyTheLastTenMinutes() {
        for (int s = 0; s <= 900; s += 60) history.record(T0.plusSeconds(s), Map.of("a", (long) s));

        assertThat(history.of("a")).extracting(LagPoint::lag).containsExactly(300L, 360L, 420L, 480L, 540L, 600L, 660L, 720L, 780L, 840L, 900L);
    }

    @Test
    void dropsAGroupTenMinutesAfterItsLastSample() {
        history.record(T0, Map.of("gone", 7L, "stays", 1L));
        history.record(T0.plus(Duration.ofMinutes(9)), Map.of("stays", 1L));
        assertThat(history.groups()).as("missing for 9 minutes: still there").containsExactly("gone", "stays");

        history.record(T0.plus(Duration.ofMinutes(10)).plusSeconds(1), Map.of("stays", 1L));
        assertThat(history.groups()).containsExactly("stays");
        assertThat(history.of("gone")).isEmpty();
    }

    @Test
    void samplesWithoutLagsStillAgeTheHistory() {
        history.record(T0, Map.of("a", 1L));
        history.forgetBefore(T0.plus(Duration.ofMinutes(11)));

        assertThat(history.groups()).isEmpty();
    }

    @Test
    void aFullRingDropsItsOldestSample() {
        LagHistory small = new LagHistory(Duration.ofMinutes(10), 3);
        for (int i = 0; i < 5; i++) small.record(T0.plusSeconds(i), Map.of("a", (long) i));

        assertThat(small.of("a")).extracting(LagPoint::lag).containsExactly(2L, 3L, 4L);
    }
}
