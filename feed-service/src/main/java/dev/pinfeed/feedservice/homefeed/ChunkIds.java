package dev.pinfeed.feedservice.homefeed;

import java.time.Clock;
import java.util.random.RandomGenerator;

/**
 * Chunk ids: time-sortable (milliseconds, then 16 random bits so two instances serving one user in
 * the same millisecond do not collide), increasing within a process, and above a floor the caller
 * names (the user's newest chunk), so a new chunk always goes ahead of the feed even across a clock
 * step back.
 */
public final class ChunkIds {

    private final Clock clock;
    private final RandomGenerator random;
    private long last;

    public ChunkIds(Clock clock, RandomGenerator random) {
        this.clock = clock;
        this.random = random;
    }

    /** A fresh id greater than {@code floor}. */
    public synchronized long next(long floor) {
        long id = (clock.millis() << 16) | random.nextInt(1 << 16);
        id = Math.max(id, Math.max(floor, last) + 1);
        last = id;
        return id;
    }
}
