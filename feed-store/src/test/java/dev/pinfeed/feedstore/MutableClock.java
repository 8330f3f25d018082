package dev.pinfeed.feedstore;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A wall clock the test moves by hand (fan-out, worker and feed-service tests share it through this test-jar). */
public final class MutableClock extends Clock {

    private volatile long millis;

    public MutableClock(long millis) {
        this.millis = millis;
    }

    public void advance(Duration d) {
        millis += d.toMillis();
    }

    public void set(long millis) {
        this.millis = millis;
    }

    @Override
    public long millis() {
        return millis;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
