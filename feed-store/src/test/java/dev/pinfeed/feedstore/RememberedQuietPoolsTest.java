package dev.pinfeed.feedstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link RememberedQuietPools} over the in-memory quiet pools: what it knows without asking, and when it forgets. Notices
 * given to the store underneath stand for another process's writes.
 */
class RememberedQuietPoolsTest {

    private static final long USER = 42;
    private final MutableClock clock = new MutableClock(1_767_225_600_000L);
    private final InMemoryQuietPools store = new InMemoryQuietPools(clock, Duration.ofMinutes(1));
    private final AtomicInteger looks = new AtomicInteger();
    private final QuietPools counted = new QuietPools() {
        @Override
        public Look look(long userId) {
            looks.incrementAndGet();
            return store.look(userId);
        }

        @Override
        public boolean markQuiet(long userId, Look look) {
            return store.markQuiet(userId, look);
        }

        @Override
        public void written(Collection<Long> userIds) {
            store.written(userIds);
        }
    };
    private final RememberedQuietPools pools = new RememberedQuietPools(counted, Duration.ofSeconds(2), 100, clock);
    /** The remembering store a racing write notices through. */
    private RememberedQuietPools writer;

    @Test
    void aMarkOrAQuietLookIsKnownForTheTimeToLiveWithoutAskingTheStore() {
        assertThat(pools.knownQuiet(USER)).isFalse();
        QuietPools.Look look = pools.look(USER);
        assertThat(pools.knownQuiet(USER)).as("a ticket is not quiet").isFalse();
        assertThat(pools.markQuiet(USER, look)).isTrue();
        assertThat(pools.knownQuiet(USER)).isTrue();
        assertThat(pools.knownQuiet(USER + 1)).as("another reader").isFalse();
        clock.advance(Duration.ofMillis(1_999));
        assertThat(pools.knownQuiet(USER)).isTrue();
        clock.advance(Duration.ofMillis(1));
        assertThat(pools.knownQuiet(USER)).as("the time to live is over").isFalse();
        assertThat(pools.look(USER).quiet()).as("the store's mark holds").isTrue();
        assertThat(pools.knownQuiet(USER)).as("a quiet look").isTrue();
        assertThat(looks).hasValue(2);
    }

    @Test
    void anotherProcesssWriteShowsAfterTheTimeToLiveAndThisProcesssAtOnce() {
        pools.markQuiet(USER, pools.look(USER));
        store.written(List.of(USER)); // not through this process
        assertThat(pools.knownQuiet(USER)).isTrue();
        clock.advance(Duration.ofSeconds(2));
        assertThat(pools.knownQuiet(USER)).isFalse();
        assertThat(pools.look(USER).quiet()).isFalse();

        long other = USER + 1;
        pools.markQuiet(USER, pools.look(USER));
        pools.markQuiet(other, pools.look(other));
        pools.written(List.of(USER));
        assertThat(pools.knownQuiet(USER)).isFalse();
        assertThat(pools.look(USER).quiet()).as("the store heard the notice too").isFalse();
        assertThat(pools.knownQuiet(other)).isTrue();
    }

    @Test
    void aLookUnderWayWhileThisProcessWritesIsNotRemembered() {
        pools.markQuiet(USER, pools.look(USER));
        clock.advance(Duration.ofSeconds(2));
        QuietPools racing = new RememberedQuietPools(new QuietPools() {
            @Override
            public Look look(long userId) {
                Look quiet = store.look(userId);
                writer.written(List.of(userId)); // lands after the store answered quiet
                return quiet;
            }

            @Override
            public boolean markQuiet(long userId, Look look) {
                return store.markQuiet(userId, look);
            }

            @Override
            public void written(Collection<Long> userIds) {}
        }, Duration.ofSeconds(2), 100, clock);
        writer = (RememberedQuietPools) racing;
        assertThat(racing.look(USER).quiet()).isTrue();
        assertThat(racing.knownQuiet(USER)).isFalse();
    }

    @Test
    void atMostMaxUsersAreRememberedAndExpiredOnesMakeRoom() {
        RememberedQuietPools two = new RememberedQuietPools(store, Duration.ofSeconds(2), 2, clock);
        for (long u = 1; u <= 3; u++) two.markQuiet(u, two.look(u));
        assertThat(List.of(two.knownQuiet(1), two.knownQuiet(2), two.knownQuiet(3))).containsExactly(true, true, false);
        clock.advance(Duration.ofSeconds(2));
        two.look(3);
        assertThat(two.knownQuiet(3)).as("expired readers made room").isTrue();
    }

    @Test
    void aZeroTimeToLiveRemembersNothingAndBadSettingsAreRefused() {
        assertThat(RememberedQuietPools.over(store, Duration.ZERO, 10, clock)).isSameAs(store);
        assertThat(store.knownQuiet(USER)).isFalse();
        assertThatThrownBy(() -> new RememberedQuietPools(store, Duration.ofMillis(-1), 10, clock)).hasMessageContaining("ttl");
        assertThatThrownBy(() -> new RememberedQuietPools(store, Duration.ofSeconds(1), 0, clock)).hasMessageContaining("maxUsers");
    }
}
