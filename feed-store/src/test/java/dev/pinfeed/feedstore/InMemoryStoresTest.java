package dev.pinfeed.feedstore;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Nested;

/**
 * The store contracts against the in-memory stores, and against the speculative stores over them (a
 * never-written standby that every read also asks: only the primary's answers may show).
 */
class InMemoryStoresTest {

    private static final AtomicLong USERS = new AtomicLong(1);

    @Nested
    class QuietPoolsInMemory extends QuietPoolsContract {
        final MutableClock clock = new MutableClock(1_767_225_600_000L);

        @Override
        protected QuietPools store(java.time.Duration maxAge) {
            return new InMemoryQuietPools(clock, maxAge);
        }

        @Override
        protected void pass(java.time.Duration d) {
            clock.advance(d);
        }

        @Override
        protected long freshUser() {
            return USERS.incrementAndGet();
        }
    }

    /** Remembering what it saw changes nothing the contract asks of a look, a mark or a notice. */
    @Nested
    class QuietPoolsRemembered extends QuietPoolsInMemory {
        @Override
        protected QuietPools store(java.time.Duration maxAge) {
            return new RememberedQuietPools(super.store(maxAge), java.time.Duration.ofSeconds(5), 100, clock);
        }
    }

    /** Every pool behaviour through the decorator that notices writes: it must pass each call on unchanged. */
    @Nested
    class NoticedPools extends PoolStoreContract {
        private final PoolStore store = new NoticingPoolStore(new InMemoryPoolStore(),
                new InMemoryQuietPools(new MutableClock(1_767_225_600_000L), java.time.Duration.ofMinutes(1)), e -> {
                    throw e;
                });

        @Override
        protected PoolStore store() {
            return store;
        }

        @Override
        protected long freshUser() {
            return USERS.incrementAndGet();
        }
    }

    @Nested
    class Pools extends PoolStoreContract {
        private final PoolStore store = new InMemoryPoolStore();

        @Override
        protected PoolStore store() {
            return store;
        }

        @Override
        protected long freshUser() {
            return USERS.incrementAndGet();
        }
    }

    @Nested
    class Rows extends PoolRowsContract {
        private final InMemoryPoolStore store = new InMemoryPoolStore();

        @Override
        protected PoolStore pools() {
            return store;
        }

        @Override
        protected PoolRows rows() {
            return store;
        }

        @Override
        protected long freshUser() {
            return USERS.incrementAndGet();
        }
    }

    @Nested
    class Materialized extends MaterializedFeedStoreContract {
        private final MaterializedFeedStore store = new InMemoryMaterializedFeedStore();

        @Override
        protected MaterializedFeedStore store() {
            return store;
        }

        @Override
        protected long freshUser() {
            return USERS.incrementAndGet();
        }
    }

    @Nested
    class SpeculativePools extends PoolStoreContract {
        private final PoolStore store = new SpeculativePoolStore(
                SpeculativeFixtures.inline(new InMemoryPoolStore(), new InMemoryPoolStore(), 100, new SimpleMeterRegistry()));

        @Override
        protected PoolStore store() {
            return store;
        }

        @Override
        protected long freshUser() {
            return USERS.incrementAndGet();
        }
    }

    @Nested
    class SpeculativeMaterialized extends MaterializedFeedStoreContract {
        private final MaterializedFeedStore store = new SpeculativeMaterializedFeedStore(SpeculativeFixtures.inline(
                new InMemoryMaterializedFeedStore(), new InMemoryMaterializedFeedStore(), 100, new SimpleMeterRegistry()));

        @Override
        protected MaterializedFeedStore store() {
            return store;
        }

        @Override
        protected long freshUser() {
            return USERS.incrementAndGet();
        }
    }

    /** The in-memory store read through a read-ahead that keeps first page views too: within one process its answers are the store's. */
    @Nested
    class ReadAhead extends Materialized {
        private final MaterializedFeedStore readAhead = new ReadAheadFeedStore(super.store(), 2, Duration.ofMinutes(1), Duration.ofMinutes(1), 100,
                new MutableClock(1_767_225_600_000L), ReadAheadFeedStore.Listener.NONE);

        @Override
        protected MaterializedFeedStore store() {
            return readAhead;
        }
    }

    @Nested
    class LastReads extends LastReadStoreContract {
        private final LastReadStore store = new InMemoryLastReadStore();

        @Override
        protected LastReadStore store() {
            return store;
        }

        @Override
        protected long freshUser() {
            return USERS.incrementAndGet();
        }
    }
}
