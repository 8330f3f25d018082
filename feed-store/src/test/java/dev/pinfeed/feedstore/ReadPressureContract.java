package dev.pinfeed.feedstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What every {@link ReadPressure} does; run against the in-memory store (unit) and Redis (IT). */
public abstract class ReadPressureContract {

    /** A store of its own (no raise of another test's store reaches it). */
    protected abstract ReadPressure store();

    /** Lets {@code d} pass for the store's expiries. */
    protected abstract void pass(Duration d);

    @Test
    void notRaisedUntilAReaderRaisesIt() {
        ReadPressure p = store();
        assertThat(p.raised()).isFalse();
        p.raise(Duration.ofMinutes(5));
        assertThat(p.raised()).isTrue();
        assertThat(p.raised()).as("a look leaves it raised").isTrue();
    }

    @Test
    void aRaiseLapsesAfterItsHold() {
        ReadPressure p = store();
        p.raise(Duration.ofMillis(300));
        pass(Duration.ofMillis(700));
        assertThat(p.raised()).isFalse();
    }

    @Test
    void aLaterRaiseExtendsTheHold() {
        ReadPressure p = store();
        p.raise(Duration.ofMillis(300));
        p.raise(Duration.ofMinutes(5));
        pass(Duration.ofMillis(700));
        assertThat(p.raised()).isTrue();
    }
}
