package dev.pinfeed.feedservice;

import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.sharded.InMemoryGraphStore;
import java.util.concurrent.atomic.AtomicLong;

/** The graph endpoints over the in-memory store (follower-graph's test-jar; it passes the store contract). */
class GraphHttpApiTest extends GraphHttpApiContract {

    private static final AtomicLong LOCAL = new AtomicLong(1);
    private final InMemoryGraphStore store = new InMemoryGraphStore();

    @Override
    protected GraphStore store() {
        return store;
    }

    @Override
    protected long freshLocal() {
        return LOCAL.incrementAndGet();
    }
}
