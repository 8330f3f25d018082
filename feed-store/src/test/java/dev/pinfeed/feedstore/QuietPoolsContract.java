package dev.pinfeed.feedstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What every {@link QuietPools} does; run against the in-memory store (unit) and Redis (IT). */
public abstract class QuietPoolsContract {

    /** A store whose marks last {@code maxAge}. */
    protected abstract QuietPools store(Duration maxAge);

    /** Lets {@code d} pass for the store's expiries. */
    protected abstract void pass(Duration d);

    protected abstract long freshUser();

    private static final Duration LONG = Duration.ofMinutes(5);

    @Test
    void aUserNeverMarkedIsNotQuietAndGetsATicket() {
        QuietPools q = store(LONG);
        QuietPools.Look look = q.look(freshUser());
        assertThat(look.quiet()).isFalse();
        assertThat(look.ticket()).isNotNull();
    }

    @Test
    void aMarkWithTheLooksTicketMakesTheNextLookQuiet() {
        QuietPools q = store(LONG);
        long u = freshUser();
        long other = freshUser();
        assertThat(q.markQuiet(u, q.look(u))).isTrue();
        assertThat(q.look(u).quiet()).isTrue();
        assertThat(q.look(u).quiet()).as("a quiet look leaves the mark").isTrue();
        assertThat(q.look(other).quiet()).as("another user").isFalse();
    }

    @Test
    void aWriteNoticedBetweenTheLookAndTheMarkVoidsTheMark() {
        QuietPools q = store(LONG);
        long u = freshUser();
        QuietPools.Look look = q.look(u);
        q.written(List.of(u)); // a write the generation's scan may have missed
        assertThat(q.markQuiet(u, look)).isFalse();
        assertThat(q.look(u).quiet()).isFalse();
    }

    @Test
    void aWriteNoticedAfterTheMarkEndsTheQuietForTheUsersWrittenOnly() {
        QuietPools q = store(LONG);
        long u = freshUser();
        long v = freshUser();
        long untouched = freshUser();
        for (long user : List.of(u, v, untouched)) assertThat(q.markQuiet(user, q.look(user))).isTrue();
        q.written(List.of(u, v, u));
        assertThat(q.look(u).quiet()).isFalse();
        assertThat(q.look(v).quiet()).isFalse();
        assertThat(q.look(untouched).quiet()).isTrue();
        q.written(List.of());
    }

    @Test
    void aNewerLooksTicketWinsOverAnOlderOne() {
        QuietPools q = store(LONG);
        long u = freshUser();
        QuietPools.Look first = q.look(u);
        QuietPools.Look second = q.look(u); // a second first page of the same user meanwhile
        assertThat(q.markQuiet(u, first)).isFalse();
        assertThat(q.markQuiet(u, second)).isTrue();
        assertThat(q.markQuiet(u, QuietPools.Look.UNKNOWN)).as("no ticket, no mark").isFalse();
    }

    @Test
    void aMarkLapsesAfterItsMaximumAge() {
        QuietPools q = store(Duration.ofMillis(300));
        long u = freshUser();
        // Not looked at before it lapses: on a loaded box the 300 ms may be gone already (a long mark's look is tested above).
        assertThat(q.markQuiet(u, q.look(u))).isTrue();
        pass(Duration.ofMillis(600));
        assertThat(q.look(u).quiet()).as("a notice that was lost delays a write at most the maximum age").isFalse();
    }
}
