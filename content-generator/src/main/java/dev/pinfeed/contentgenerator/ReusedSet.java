package dev.pinfeed.contentgenerator;

import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.function.Supplier;

/** A small set read from a store and reused for a while (the celebrity set, the popular interests), so not every first page reads it. */
final class ReusedSet {

    private final Supplier<Set<Long>> read;
    private final Duration reuse;
    private final Clock clock;
    private volatile Set<Long> held;
    private volatile long readAt;

    ReusedSet(Supplier<Set<Long>> read, Duration reuse, Clock clock) {
        this.read = read;
        this.reuse = reuse;
        this.clock = clock;
    }

    Set<Long> get() {
        long now = clock.millis();
        Set<Long> set = held;
        if (set == null || now - readAt >= reuse.toMillis()) {
            set = read.get();
            held = set;
            readAt = now;
        }
        return set;
    }
}
