package dev.pinfeed.idallocator;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/** How a generator waits for its clock. Injected so fake-clock tests advance time instead of sleeping. */
@FunctionalInterface
public interface Waiter {

    void pause(Duration duration);

    /** Parks the thread; an interrupt ends the wait with an {@link IdAllocationException}. */
    static Waiter parking() {
        return duration -> {
            LockSupport.parkNanos(duration.toNanos());
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                throw new IdAllocationException("interrupted while waiting for the clock");
            }
        };
    }
}
