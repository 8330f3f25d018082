package dev.pinfeed.canonicalstore.reads;

import java.util.concurrent.atomic.AtomicLong;

/** The contract over the in-memory store (the fake feed-service's route tests use). */
class InMemoryCanonicalReadsTest extends CanonicalReadsContract {

    private static final AtomicLong LOCAL = new AtomicLong(1);
    private final InMemoryCanonicalReads store = new InMemoryCanonicalReads();

    @Override
    protected CanonicalReads reads() {
        return store;
    }

    @Override
    protected CanonicalSeed seed() {
        return store;
    }

    @Override
    protected long freshLocal() {
        return LOCAL.incrementAndGet();
    }
}
