package dev.pinfeed.feedstore;

import java.time.Duration;

/**
 * Readers telling the pool writers that they wait. Seed 002 serves the home feed before it fills pools: the feed service
 * raises the pressure while too many of its home-feed pages are slow, and the feed worker paces its pool writes while it is
 * raised (the region servers the pages read from are the ones the writes load).
 *
 * <p>A raise lasts its hold; a reader that stays slow raises it again before it lapses. A raise that is lost, or a
 * look that fails, costs only pacing: nothing is written or read wrong by it.
 */
public interface ReadPressure extends AutoCloseable {

    /** Readers waited: the pressure stays raised for {@code hold} from now (a later raise extends it). */
    void raise(Duration hold);

    /** Whether a raise's hold is still running. */
    boolean raised();

    @Override
    default void close() {}

    /** Never raised: writers never pace. */
    ReadPressure NONE = new ReadPressure() {
        @Override
        public void raise(Duration hold) {}

        @Override
        public boolean raised() {
            return false;
        }
    };
}
