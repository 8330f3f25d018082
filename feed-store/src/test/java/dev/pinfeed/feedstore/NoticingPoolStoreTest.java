package dev.pinfeed.feedstore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NoticingPoolStoreTest {

    private static final long T0 = 1_767_225_600_000L;
    private final MutableClock clock = new MutableClock(T0);
    private final InMemoryQuietPools quiet = new InMemoryQuietPools(clock, Duration.ofMinutes(1));
    private final InMemoryPoolStore pools = new InMemoryPoolStore();
    private final List<RuntimeException> failures = new ArrayList<>();

    private static PoolEntry entry(long user, long pin) {
        return new PoolEntry(user, Source.FOLLOWED_USER, 1.0, pin, 1, 2, T0);
    }

    private boolean quietAfterMark(long user) {
        quiet.markQuiet(user, quiet.look(user));
        return quiet.look(user).quiet();
    }

    @Test
    void everyUpsertEndsTheQuietOfTheUsersItWroteToAndRemovalsDoNot() {
        PoolStore noticing = new NoticingPoolStore(pools, quiet, failures::add);
        assertThat(quietAfterMark(1)).isTrue();
        assertThat(quietAfterMark(2)).isTrue();
        assertThat(quietAfterMark(3)).isTrue();
        noticing.upsert(List.of(entry(1, 10)));
        noticing.upsert(List.of(entry(2, 20)), 100, 50);
        noticing.upsert(List.of(entry(3, 30)), e -> true, 100, 50);
        for (long u : List.of(1L, 2L, 3L)) assertThat(quiet.look(u).quiet()).as("user %d", u).isFalse();
        assertThat(pools.all(3)).extracting(PoolEntry::pinId).containsExactly(30L);

        assertThat(quietAfterMark(1)).isTrue();
        noticing.remove(1, List.of(10L));
        noticing.removeShown(1, List.of(10L), List.of());
        assertThat(quiet.look(1).quiet()).as("removals give a quiet pool nothing to generate").isTrue();
        assertThat(failures).isEmpty();
    }

    @Test
    void aNoticeThatFailsIsReportedAndTheWriteStands() {
        StoreUnavailableException down = new StoreUnavailableException("redis-graph-0", "down", null);
        QuietPools failing = InMemoryQuietPools.failingWith(down);
        new NoticingPoolStore(pools, failing, failures::add).upsert(List.of(entry(4, 40)));
        assertThat(pools.all(4)).extracting(PoolEntry::pinId).containsExactly(40L);
        assertThat(failures).containsExactly(down);
    }

    @Test
    void overNoQuietPoolsIsThePoolStoreItself() {
        assertThat(NoticingPoolStore.over(pools, QuietPools.NONE, failures::add)).isSameAs(pools);
        assertThat(NoticingPoolStore.over(pools, quiet, failures::add)).isInstanceOf(NoticingPoolStore.class);
    }
}
