package dev.pinfeed.feedservice.homefeed;

import static dev.pinfeed.feedservice.homefeed.HomeFeedFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.feedservice.homefeed.HomeFeedListener.QuietPoolsOutcome;
import dev.pinfeed.feedstore.InMemoryQuietPools;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.QuietPools;
import dev.pinfeed.feedstore.RememberedQuietPools;
import dev.pinfeed.feedstore.Source;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** First pages of readers whose pools are quiet: the generation does not read them until a write is noticed. */
class HomeFeedQuietPoolsTest {

    private static final Duration MAX_AGE = Duration.ofMinutes(1);
    private final HomeFeedFixture f = new HomeFeedFixture();
    private final InMemoryQuietPools quiet = new InMemoryQuietPools(f.clock, MAX_AGE);
    private final AtomicInteger poolReads = new AtomicInteger();

    @AfterEach
    void close() {
        f.close();
    }

    private static List<Long> pins(HomeFeed.Page page) {
        return page.items().stream().map(i -> i.pin().id()).toList();
    }

    /** The generator's view of the pools: counts its reads of them all, and runs {@code duringRead} after each (a write meanwhile). */
    private UnaryOperator<PoolStore> counted(Consumer<Long> duringRead) {
        return pools -> new DelegatingPoolStore(pools) {
            @Override
            public Map<Source, List<PoolEntry>> bestOfEach(long userId, Set<Source> sources, int n, int rowsAtMost) {
                poolReads.incrementAndGet();
                Map<Source, List<PoolEntry>> read = super.bestOfEach(userId, sources, n, rowsAtMost);
                duringRead.accept(userId);
                return read;
            }
        };
    }

    /** A reader with one pin in his materialized feed ({@code old}) and a pin to come ({@code fresh}). */
    private record Reader(long user, long old, long fresh) {}

    private Reader reader() {
        long u = f.user();
        long old = f.pin(), fresh = f.pin();
        f.materialized(u, (T0 - 1_000_000) << 16, old);
        return new Reader(u, old, fresh);
    }

    private PoolEntry entry(long user, long pin) {
        return new PoolEntry(user, Source.FOLLOWED_USER, 50.0, pin, 1, 2, f.clock.millis());
    }

    @Test
    void poolsThisProcessFoundQuietAMomentAgoCostNoGenerationAndAPageThatChangedNothingLeavesNoWork() {
        Reader r = reader();
        long u = r.user(), old = r.old(), fresh = r.fresh();
        HomeFeed feed = f.feed(new RememberedQuietPools(quiet, Duration.ofSeconds(5), 100, f.clock), counted(user -> {}));
        assertThat(pins(feed.read(u, null, 10))).containsExactly(old);
        f.later.runAll(); // the first view saves the state
        assertThat(f.counts.quiet(QuietPoolsOutcome.MARKED)).isEqualTo(1);

        for (int i = 0; i < 3; i++) {
            assertThat(pins(feed.read(u, null, 10))).containsExactly(old);
            assertThat(f.later.queued()).as("nothing to write after the answer").isZero();
        }
        assertThat(f.counts.quiet(QuietPoolsOutcome.REMEMBERED)).isEqualTo(3);
        assertThat(f.counts.quiet(QuietPoolsOutcome.SKIPPED)).as("the quiet pools' store was not asked").isZero();
        assertThat(poolReads.get()).isEqualTo(1);

        f.noticed(quiet).upsert(List.of(entry(u, fresh))); // another process's write: noticed in the store only
        assertThat(pins(feed.read(u, null, 10))).as("within the time to live").containsExactly(old);
        f.clock.advance(Duration.ofSeconds(5));
        assertThat(pins(feed.read(u, null, 10))).containsExactly(fresh, old);
        f.later.runAll();
        assertThat(poolReads.get()).isEqualTo(2);
        assertThat(f.pools.all(u)).as("shown: out of the pools").isEmpty();
    }

    @Test
    void aReaderWhoseGenerationFoundNothingIsNotReadAgainUntilAPoolWriteIsNoticed() {
        Reader r = reader();
        long u = r.user(), old = r.old(), fresh = r.fresh();
        HomeFeed feed = f.feed(quiet, counted(user -> {}));

        assertThat(pins(feed.read(u, null, 10))).containsExactly(old);
        f.later.runAll();
        assertThat(poolReads.get()).isEqualTo(1);
        assertThat(f.counts.quiet(QuietPoolsOutcome.MARKED)).isEqualTo(1);

        for (int i = 0; i < 3; i++) {
            assertThat(pins(feed.read(u, null, 10))).containsExactly(old);
            f.later.runAll();
        }
        assertThat(poolReads.get()).as("quiet pools are not read").isEqualTo(1);
        assertThat(f.counts.quiet(QuietPoolsOutcome.SKIPPED)).isEqualTo(3);

        f.noticed(quiet).upsert(List.of(entry(u, fresh))); // the fan-out, as feed-worker writes
        assertThat(pins(feed.read(u, null, 10))).containsExactly(fresh, old);
        f.later.runAll();
        assertThat(poolReads.get()).isEqualTo(2);
        assertThat(f.pools.all(u)).as("shown: out of the pools").isEmpty();
    }

    /** The race the tickets are for: the generation's read missed a write that was noticed before its mark. */
    @Test
    void aWriteNoticedWhileTheGenerationReadThePoolsKeepsThemFromBeingMarkedQuiet() {
        Reader r = reader();
        long u = r.user(), old = r.old(), fresh = r.fresh();
        AtomicInteger writes = new AtomicInteger();
        HomeFeed feed = f.feed(quiet, counted(user -> {
            if (writes.getAndIncrement() == 0) f.noticed(quiet).upsert(List.of(entry(user, fresh)));
        }));

        assertThat(pins(feed.read(u, null, 10))).as("the read missed it").containsExactly(old);
        f.later.runAll();
        assertThat(f.counts.quiet(QuietPoolsOutcome.MARKED)).isZero();
        assertThat(pins(feed.read(u, null, 10))).containsExactly(fresh, old);
    }

    /** A write whose notice was lost (its writer died after the write) reaches the reader once the mark lapses. */
    @Test
    void aWriteWhoseNoticeWasLostIsShownOnceTheMarkLapses() {
        Reader r = reader();
        long u = r.user(), old = r.old(), fresh = r.fresh();
        HomeFeed feed = f.feed(quiet, counted(user -> {}));
        feed.read(u, null, 10);
        f.later.runAll();

        f.pools.upsert(List.of(entry(u, fresh))); // not noticed
        assertThat(pins(feed.read(u, null, 10))).containsExactly(old);
        f.later.runAll();
        f.clock.advance(MAX_AGE.plusSeconds(1));
        assertThat(pins(feed.read(u, null, 10))).containsExactly(fresh, old);
    }

    @Test
    void aQuietPoolsStoreThatFailsCostsTheSkipNotThePage() {
        Reader r = reader();
        long u = r.user(), old = r.old(), fresh = r.fresh();
        StoreUnavailableException down = new StoreUnavailableException("redis-graph-0", "down", null);
        QuietPools failing = InMemoryQuietPools.failingWith(down);
        HomeFeed feed = f.feed(failing, counted(user -> {}));
        for (int i = 0; i < 2; i++) {
            assertThat(pins(feed.read(u, null, 10))).containsExactly(old);
            f.later.runAll();
        }
        assertThat(poolReads.get()).as("not known to be quiet: read").isEqualTo(2);
        f.noticed(failing).upsert(List.of(entry(u, fresh))); // the write stands, its notice counted as failed
        assertThat(pins(feed.read(u, null, 10))).containsExactly(fresh, old);
        assertThat(f.counts.quiet(QuietPoolsOutcome.ERROR)).as("two looks, a notice, a look").isEqualTo(4);
    }
}
