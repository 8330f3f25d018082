package dev.pinfeed.processorruntime;

/**
 * Drives a {@link ConsumerLoop} one poll at a time from feed-worker's tests: the loop's own stepping
 * hooks are package-private, and a loop on a thread would make the tests timed.
 */
public final class LoopDriver {

    private LoopDriver() {}

    public static void subscribe(ConsumerLoop loop) {
        loop.subscribe();
    }

    public static void pollOnce(ConsumerLoop loop) {
        loop.pollOnce();
    }
}
