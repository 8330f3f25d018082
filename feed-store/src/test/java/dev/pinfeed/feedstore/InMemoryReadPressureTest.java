package dev.pinfeed.feedstore;

import java.time.Duration;

class InMemoryReadPressureTest extends ReadPressureContract {

    private final MutableClock clock = new MutableClock(1_000_000L);

    @Override
    protected ReadPressure store() {
        return new InMemoryReadPressure(clock);
    }

    @Override
    protected void pass(Duration d) {
        clock.advance(d);
    }
}
