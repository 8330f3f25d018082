package dev.pinfeed.followergraph;

/**
 * The graph in process memory: the same write protocol and query code as {@link RedisGraphStore},
 * over an in-memory stand-in for Redis. For unit tests and tools; not durable.
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
