package dev.pinfeed.httpkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PrincipalRateLimiterTest {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final PrincipalRateLimiter limiter = new PrincipalRateLimiter(10, 3, nanos::get);

    @Test
    void aBurstThenTheRate() {
        for (int i = 0; i < 3; i++) assertThat(limiter.tryAcquire("alice")).isTrue();
        assertThat(limiter.tryAcquire("alice")).isFalse();
        nanos.addAndGet(100_000_000L); // a tenth of a second: one more at 10/s
        assertThat(limiter.tryAcquire("alice")).isTrue();
        assertThat(limiter.tryAcquire("alice")).isFalse();
    }

    @Test
    void oneCallerOverItsRateCostsTheOthersNothing() {
        for (int i = 0; i < 3; i++) limiter.tryAcquire("hog");
        assertThat(limiter.tryAcquire("hog")).isFalse();
        assertThat(limiter.tryAcquire("bob")).isTrue();
    }

    @Test
    void anIdleCallerRefillsOnlyToTheBurst() {
        for (int i = 0; i < 3; i++) limiter.tryAcquire("alice");
        nanos.addAndGet(3_600_000_000_000L);
        for (int i = 0; i < 3; i++) assertThat(limiter.tryAcquire("alice")).isTrue();
        assertThat(limiter.tryAcquire("alice")).isFalse();
    }

    @Test
    void aRateBelowOneASecondIsRefused() {
        assertThatThrownBy(() -> new PrincipalRateLimiter(0.5, 1, nanos::get)).isInstanceOf(IllegalArgumentException.class);
    }
}
