package dev.pinfeed.feedstore;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Nested;

/** The store contracts against the in-memory stores. */
class InMemoryStoresTest {

    private static final AtomicLong USERS = new AtomicLong(1);

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
}
