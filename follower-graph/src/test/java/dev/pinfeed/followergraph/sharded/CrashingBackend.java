package dev.pinfeed.followergraph.sharded;

import java.util.List;

/** A backend that fails the n-th guarded apply (1-based), once: a writer crashing between the two sides of an edge. */
public final class CrashingBackend extends ForwardingBackend {

    private int applies;
    private final int crashAt;

    public CrashingBackend(GraphBackend delegate, int crashAt) {
        super(delegate);
        this.crashAt = crashAt;
    }

    @Override
    public boolean apply(int shard, Guard guard, List<Mutation> mutations) {
        if (guard != null && ++applies == crashAt) throw new IllegalStateException("crash before apply " + crashAt);
        return super.apply(shard, guard, mutations);
    }
}
