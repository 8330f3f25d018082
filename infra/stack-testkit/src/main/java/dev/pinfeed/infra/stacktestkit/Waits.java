package dev.pinfeed.infra.stacktestkit;

import java.time.Duration;
import java.util.Collection;

/** Waiting in tests that drive a writer against servers they kill (failover, moves). */
public final class Waits {

    private Waits() {}

    /** Waits until {@code acknowledged} holds {@code count} entries; fails naming how many came within {@code patience}. */
    public static void awaitAcks(Collection<?> acknowledged, int count, Duration patience) {
        long deadline = System.nanoTime() + patience.toNanos();
        while (acknowledged.size() < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + acknowledged.size() + " of " + count + " writes acknowledged in " + patience);
            }
            pause(20);
        }
    }

    public static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
