package dev.pinfeed.feedservice;

import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.canonicalstore.reads.CanonicalSeed;
import dev.pinfeed.canonicalstore.reads.InMemoryCanonicalReads;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.sharded.InMemoryGraphStore;
import java.util.concurrent.atomic.AtomicLong;

/** The graph endpoints over the in-memory store and the in-memory canonical store (the test-jars of follower-graph and canonical-store; each passes its store contract). */
class GraphHttpApiTest extends GraphHttpApiContract {

    private static final AtomicLong LOCAL = new AtomicLong(1);
    private final InMemoryGraphStore store = new InMemoryGraphStore();
    private final InMemoryCanonicalReads canonical = new InMemoryCanonicalReads();

    @Override
    protected GraphStore store() {
        return store;
    }

    @Override
    protected CanonicalReads reads() {
        return canonical;
    }

    @Override
    protected CanonicalSeed seed() {
        return canonical;
    }

    @Override
    protected long freshLocal() {
        return LOCAL.incrementAndGet();
    }
}
