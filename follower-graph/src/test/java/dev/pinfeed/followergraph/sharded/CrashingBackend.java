package dev.pinfeed.followergraph.sharded;

import java.util.List;

/**
 * A backend that fails the n-th guarded apply (1-based), once: a writer crashing between the two sides of an edge (on one
 * instance, whose pipeline writes the follower's side before the followee's; on two, the sides are written in parallel).
 */
public final class CrashingBackend extends ForwardingBackend {

    private final java.util.concurrent.atomic.AtomicInteger applies = new java.util.concurrent.atomic.AtomicInteger();
    private final int crashAt;

    public CrashingBackend(GraphBackend delegate, int crashAt) {
        super(delegate);
        this.crashAt = crashAt;
    }

    @Override
    public boolean apply(int shard, Guard guard, List<Mutation> mutations) {
        if (guard != null && applies.incrementAndGet() == crashAt) throw new IllegalStateException("crash before apply " + crashAt);
        return super.apply(shard, guard, mutations);
    }
}
