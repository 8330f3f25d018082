package dev.pinfeed.feedworker;

import java.util.concurrent.atomic.AtomicLong;

class InMemoryAffinityStoreTest extends AffinityStoreContract {

    private static final AtomicLong USERS = new AtomicLong(1);
    private final AffinityStore store = new InMemoryAffinityStore();

    @Override
    protected AffinityStore store() {
        return store;
    }

    @Override
    protected long freshUser() {
        return USERS.incrementAndGet();
    }
}
