package dev.pinfeed.feedworker.canonical;

import dev.pinfeed.canonicalstore.reads.CanonicalSeed;
import dev.pinfeed.canonicalstore.reads.InMemoryCanonicalReads;
import dev.pinfeed.feedworker.CanonicalPins;
import java.util.concurrent.atomic.AtomicLong;

/** The adapter over canonical-store's in-memory store (held to MySQL by canonical-store's own contract). */
class CanonicalReadsPinsTest extends CanonicalPinsContract {

    private static final AtomicLong LOCAL = new AtomicLong(1);
    private final InMemoryCanonicalReads store = new InMemoryCanonicalReads();
    private final CanonicalPins pins = new CanonicalReadsPins(store);

    @Override
    protected CanonicalPins pins() {
        return pins;
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
