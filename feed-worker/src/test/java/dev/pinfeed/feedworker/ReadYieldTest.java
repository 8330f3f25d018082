package dev.pinfeed.feedworker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.feedstore.InMemoryReadPressure;
import dev.pinfeed.feedstore.MutableClock;
import dev.pinfeed.feedstore.ReadPressure;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ReadYieldTest {

    private final MutableClock clock = new MutableClock(1_000_000L);
    private final InMemoryReadPressure pressure = new InMemoryReadPressure(clock);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ReadYield.Settings settings = new ReadYield.Settings(4, 1_000, 5_000);

    private ReadYield yielding(ReadPressure p, ReadYield.Settings s) {
        return new ReadYield(p, s, clock, new WorkerMetrics(registry));
    }

    /** One batch a second of {@code workedMillis}, the pressure raised or not: the pause after it. */
    private long second(ReadYield y, boolean raised, long workedMillis) {
        if (raised) pressure.raise(Duration.ofMillis(1_500));
        clock.advance(Duration.ofMillis(1_000));
        return y.pauseAfter(workedMillis);
    }

    @Test
    void fullPaceWhileNoReaderWaits() {
        ReadYield y = yielding(pressure, settings);
        for (int i = 0; i < 5; i++) assertThat(second(y, false, 200)).isZero();
        assertThat(y.ratio()).isZero();
    }

    @Test
    void whileReadersWaitThePauseGrowsToTheMaximumRatioAndNoFurther() {
        ReadYield y = yielding(pressure, settings);
        assertThat(second(y, true, 200)).isEqualTo(100); // ½
        assertThat(second(y, true, 200)).isEqualTo(200); // 1
        assertThat(second(y, true, 200)).isEqualTo(400); // 2
        assertThat(second(y, true, 200)).isEqualTo(800); // 4
        assertThat(second(y, true, 200)).as("never past max-ratio: the worker keeps a fifth of its pace").isEqualTo(800);
        assertThat(registry.get("feed.worker.read.yield.ratio").gauge().value()).isEqualTo(4.0);
        assertThat(registry.get("feed.worker.read.yield.pause.seconds").counter().count()).isEqualTo(2.3);
    }

    @Test
    void onceReadersAreServedThePauseHalvesDownToNone() {
        ReadYield y = yielding(pressure, settings);
        for (int i = 0; i < 4; i++) second(y, true, 100);
        assertThat(y.ratio()).isEqualTo(4.0);
        assertThat(second(y, false, 100)).isEqualTo(200);
        assertThat(second(y, false, 100)).isEqualTo(100);
        assertThat(second(y, false, 100)).isEqualTo(50);
        second(y, false, 100); // ¼
        second(y, false, 100); // ⅛
        assertThat(second(y, false, 100)).as("below a tenth: full pace").isZero();
        assertThat(y.ratio()).isZero();
    }

    @Test
    void looksAtThePressureAtMostOncePerInterval() {
        ReadYield y = yielding(pressure, settings);
        pressure.raise(Duration.ofMinutes(1));
        for (int i = 0; i < 50; i++) {
            y.pauseAfter(10);
            clock.advance(Duration.ofMillis(10));
        }
        assertThat(pressure.looks()).isEqualTo(1);
        assertThat(y.ratio()).as("one look, one step").isEqualTo(0.5);
        assertThat(y.pauseAfter(10_000)).as("the pause is proportional to the batch's time").isEqualTo(5_000);
        assertThat(y.pauseAfter(100_000)).as("bounded by max-pause-ms").isEqualTo(5_000);
    }

    @Test
    void aLookThatFailsIsTakenAsNotRaisedAndCounted() {
        ReadYield y = yielding(new ReadPressure() {
            @Override
            public void raise(Duration hold) {}

            @Override
            public boolean raised() {
                throw new dev.pinfeed.config.StoreUnavailableException("redis001", "refused");
            }
        }, settings);
        clock.advance(Duration.ofSeconds(1));
        assertThat(y.pauseAfter(500)).isZero();
        assertThat(registry.get("feed.worker.read.pressure.look.failures").counter().count()).isEqualTo(1.0);
    }

    @Test
    void offNeverLooksNorPauses() {
        ReadYield y = yielding(pressure, new ReadYield.Settings(0, 1_000, 5_000));
        pressure.raise(Duration.ofMinutes(1));
        clock.advance(Duration.ofSeconds(1));
        assertThat(y.pauseAfter(1_000)).isZero();
        assertThat(pressure.looks()).isZero();
        assertThatThrownBy(() -> new ReadYield.Settings(-1, 1_000, 5_000)).hasMessageContaining("feed.worker.yield.max-ratio");
    }
}
