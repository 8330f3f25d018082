package dev.pinfeed.followergraph.sharded;

import java.util.List;

/** A backend that passes everything on; tests override what they break. */
public class ForwardingBackend implements GraphBackend {

    private final GraphBackend delegate;

    public ForwardingBackend(GraphBackend delegate) {
        this.delegate = delegate;
    }

    @Override
    public String instanceOf(int shard) {
        return delegate.instanceOf(shard);
    }

    @Override
    public Reads reads(String instance) {
        return delegate.reads(instance);
    }

    @Override
    public PairRead casRegister(int shard, CasRequest request) {
        return delegate.casRegister(shard, request);
    }

    @Override
    public boolean apply(int shard, Guard guard, List<Mutation> mutations) {
        return delegate.apply(shard, guard, mutations);
    }

    @Override
    public long claimOwner(int shard, String ownersKey, long board, long owner) {
        return delegate.claimOwner(shard, ownersKey, board, owner);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
