package dev.pinfeed.idallocator;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/** A clock tests move by hand; as a {@link Waiter} a pause moves it forward, unless frozen. */
final class FakeClock implements InstantSource, Waiter {

    private final AtomicLong nanosSinceUnixEpoch;
    private final List<Duration> pauses = new CopyOnWriteArrayList<>();
    private volatile boolean frozen;

    FakeClock(Instant start) {
        this.nanosSinceUnixEpoch = new AtomicLong(start.getEpochSecond() * 1_000_000_000L + start.getNano());
    }

    @Override
    public Instant instant() {
        long nanos = nanosSinceUnixEpoch.get();
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }

    void advance(Duration d) {
        nanosSinceUnixEpoch.addAndGet(d.toNanos());
    }

    void set(Instant t) {
        nanosSinceUnixEpoch.set(t.getEpochSecond() * 1_000_000_000L + t.getNano());
    }

    /** From now on pauses pass no time: the clock is stuck. */
    void freeze() {
        frozen = true;
    }

    @Override
    public void pause(Duration duration) {
        pauses.add(duration);
        if (!frozen) advance(duration);
    }

    List<Duration> pauses() {
        return pauses;
    }

    Duration totalPaused() {
        return pauses.stream().reduce(Duration.ZERO, Duration::plus);
    }
}
