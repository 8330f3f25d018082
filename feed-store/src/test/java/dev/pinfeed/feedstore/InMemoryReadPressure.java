package dev.pinfeed.feedstore;

import java.time.Clock;
import java.time.Duration;

/** {@link ReadPressure} on an injected clock, for unit tests; {@link ReadPressureContract} holds it to the Redis store's behaviour. */
public final class InMemoryReadPressure implements ReadPressure {

    private final Clock clock;
    private long raisedUntil = Long.MIN_VALUE;
    private int looks;

    public InMemoryReadPressure(Clock clock) {
        this.clock = clock;
    }

    @Override
    public synchronized void raise(Duration hold) {
        raisedUntil = clock.millis() + hold.toMillis();
    }

    @Override
    public synchronized boolean raised() {
        looks++;
        return clock.millis() < raisedUntil;
    }

    /** How many times {@link #raised} was asked. */
    public synchronized int looks() {
        return looks;
    }
}
