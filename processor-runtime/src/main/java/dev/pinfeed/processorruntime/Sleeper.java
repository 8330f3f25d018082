package dev.pinfeed.processorruntime;

/** Waiting, injectable so retry and backoff logic is tested without real time passing. */
@FunctionalInterface
public interface Sleeper {

    Sleeper SYSTEM = Thread::sleep;

    void sleep(long millis) throws InterruptedException;

    /** Sleeps; an interrupt ends the sleep early and stays set on the thread. */
    default void sleepQuietly(long millis) {
        try {
            sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
