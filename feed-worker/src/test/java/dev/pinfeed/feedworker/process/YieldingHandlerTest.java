package dev.pinfeed.feedworker.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.feedstore.InMemoryReadPressure;
import dev.pinfeed.feedstore.MutableClock;
import dev.pinfeed.feedworker.ReadYield;
import dev.pinfeed.feedworker.WorkerMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The loop's handler pauses after each batch for the yield's ratio times the batch's own time, and only while readers wait. */
class YieldingHandlerTest {

    private final MutableClock clock = new MutableClock(1_780_000_000_000L);
    private final InMemoryReadPressure pressure = new InMemoryReadPressure(clock);
    private final List<Long> pauses = new ArrayList<>();
    private int batches;

    private final YieldingHandler handler = new YieldingHandler((records, outcomes) -> {
        batches++;
        clock.advance(Duration.ofMillis(300)); // the batch's work
    }, new ReadYield(pressure, new ReadYield.Settings(4, 1_000, 5_000), clock, new WorkerMetrics(new SimpleMeterRegistry())),
            clock, pauses::add);

    @Test
    void pausesOnlyWhileReadersWaitInProportionToTheBatch() {
        handler.apply(List.of(), null);
        assertThat(pauses).as("nobody waits: no pause").isEmpty();
        pressure.raise(Duration.ofMinutes(1));
        clock.advance(Duration.ofSeconds(1));
        handler.apply(List.of(), null);
        clock.advance(Duration.ofSeconds(1));
        handler.apply(List.of(), null);
        assertThat(batches).isEqualTo(3);
        assertThat(pauses).containsExactly(150L, 300L);
    }
}
