package dev.pinfeed.feedservice;

import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.canonicalstore.reads.CanonicalSeed;
import dev.pinfeed.canonicalstore.reads.InMemoryCanonicalReads;
import java.util.concurrent.atomic.AtomicLong;

/** The canonical routes over the in-memory store (canonical-store's test-jar; it passes the reads contract). */
class CanonicalReadsHttpTest extends CanonicalReadsHttpContract {

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
