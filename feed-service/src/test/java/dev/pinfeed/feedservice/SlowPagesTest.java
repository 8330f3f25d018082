package dev.pinfeed.feedservice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.feedstore.ReadPressure;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SlowPagesTest {

    private static final long MS = 1_000_000L;

    private final AtomicLong now = new AtomicLong(5_000 * MS);
    private final List<Duration> raises = new ArrayList<>();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final ReadPressure pressure = new ReadPressure() {
        @Override
        public void raise(Duration hold) {
            raises.add(hold);
        }

        @Override
        public boolean raised() {
            return !raises.isEmpty();
        }
    };
    private final SlowPages.Settings settings = new SlowPages.Settings(50, 0.02, 20, Duration.ofSeconds(3));

    private SlowPages watch(ReadPressure p) {
        return new SlowPages(p, settings, now::get, meters);
    }

    /** {@code n} pages of {@code millis} each, spread over one second, then the page that ends the second. */
    private void second(SlowPages w, int n, long millis) {
        for (int i = 0; i < n; i++) {
            long start = w.start();
            now.addAndGet(millis * MS);
            w.served(start);
            now.addAndGet(1_000 * MS / n - millis * MS);
        }
        now.addAndGet(MS);
    }

    private double counted(String outcome) {
        return meters.get("feed.read.pressure.raises").tag("outcome", outcome).counter().count();
    }

    @Test
    void aSecondWithEnoughSlowPagesRaisesThePressureForItsHold() {
        SlowPages w = watch(pressure);
        second(w, 100, 10); // fast
        second(w, 97, 10);
        assertThat(raises).isEmpty();
        second(w, 97, 60); // all slow
        second(w, 97, 10);
        assertThat(raises).as("one raise, by the page that ended the slow second").containsExactly(Duration.ofSeconds(3));
        assertThat(counted("raised")).isEqualTo(1.0);
    }

    @Test
    void aFewSlowPagesBelowTheShareSayNothing() {
        SlowPages w = watch(pressure);
        for (int s = 0; s < 3; s++) {
            for (int i = 0; i < 99; i++) {
                long start = w.start();
                now.addAndGet((i == 0 ? 200 : 5) * MS); // one slow page in 100: 1 %, below 2 %
                w.served(start);
                now.addAndGet(5 * MS);
            }
            now.addAndGet(1_000 * MS);
        }
        assertThat(raises).isEmpty();
    }

    @Test
    void aSecondOfFewPagesSaysNothingHoweverSlow() {
        SlowPages w = watch(pressure);
        second(w, 10, 500);
        second(w, 10, 500);
        assertThat(raises).isEmpty();
    }

    @Test
    void aRaiseThatFailsIsCountedAndThePageServed() {
        SlowPages w = watch(new ReadPressure() {
            @Override
            public void raise(Duration hold) {
                throw new StoreUnavailableException("redis001", "refused");
            }

            @Override
            public boolean raised() {
                return false;
            }
        });
        second(w, 50, 100);
        second(w, 50, 100);
        assertThat(counted("failed")).isGreaterThanOrEqualTo(1.0);
    }

    @Test
    void offWatchesNothing() {
        SlowPages w = new SlowPages(pressure, new SlowPages.Settings(0, 0.02, 20, Duration.ofSeconds(3)), now::get, meters);
        second(w, 100, 500);
        second(w, 100, 500);
        assertThat(raises).isEmpty();
        assertThatThrownBy(() -> new SlowPages.Settings(50, 0, 20, Duration.ofSeconds(3))).hasMessageContaining("feed.read-pressure.slow-percent");
    }
}
