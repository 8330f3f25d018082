package dev.pinfeed.followergraph.sharded;

/**
 * The graph in process memory: the same write protocol and query code as the Redis store, over an
 * in-memory stand-in for Redis ({@link MemoryBackend}). A test double, published in follower-graph's
 * test-jar for the unit tests of modules that use a {@code GraphStore}; never in production code.
 */
public final class InMemoryGraphStore extends ShardedGraphStore {

    private final MemoryBackend backend;

    public InMemoryGraphStore() {
        this(new MemoryBackend());
    }

    private InMemoryGraphStore(MemoryBackend backend) {
        super(backend, new GraphKeys(""));
        this.backend = backend;
    }

    /** Every key currently holding data (the same key scheme as Redis). */
    public java.util.Set<String> keySet() {
        return backend.keys();
    }
}
