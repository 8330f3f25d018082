package dev.pinfeed.followergraph.sharded;

import java.util.List;
import java.util.Map;

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
    public List<String> instances() {
        return delegate.instances();
    }

    @Override
    public long keyCount(String instance) {
        return delegate.keyCount(instance);
    }

    @Override
    public ScanStep scan(String instance, String cursor, String pattern, int count) {
        return delegate.scan(instance, cursor, pattern, count);
    }

    @Override
    public Map<String, Stored> read(String instance, List<KeyRead> keys) {
        return delegate.read(instance, keys);
    }

    @Override
    public PairReset resetPair(int shard, PairResetRequest request) {
        return delegate.resetPair(shard, request);
    }

    @Override
    public int fixKey(String instance, KeyFix fix) {
        return delegate.fixKey(instance, fix);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
