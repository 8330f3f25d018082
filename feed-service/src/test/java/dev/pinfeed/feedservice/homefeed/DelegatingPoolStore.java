package dev.pinfeed.feedservice.homefeed;

import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.Source;
import java.util.Collection;
import java.util.List;

/** A {@link PoolStore} that passes every call on: tests override what should fail or stall (the generator's reads). */
public class DelegatingPoolStore implements PoolStore {

    private final PoolStore pools;

    public DelegatingPoolStore(PoolStore pools) {
        this.pools = pools;
    }

    @Override
    public void upsert(Collection<PoolEntry> entries) {
        pools.upsert(entries);
    }

    @Override
    public int upsert(Collection<PoolEntry> entries, int maxPerSource, int keepPerSource) {
        return pools.upsert(entries, maxPerSource, keepPerSource);
    }

    @Override
    public void remove(long userId, Collection<Long> pinIds) {
        pools.remove(userId, pinIds);
    }

    @Override
    public List<PoolEntry> best(long userId, Source source, int n) {
        return pools.best(userId, source, n);
    }

    @Override
    public List<PoolEntry> all(long userId) {
        return pools.all(userId);
    }

    @Override
    public int trim(long userId, int maxPerSource) {
        return pools.trim(userId, maxPerSource);
    }

    /** Pools whose reads fail, so the content generator throws. */
    public static PoolStore failingReads(PoolStore pools) {
        return new DelegatingPoolStore(pools) {
            @Override
            public List<PoolEntry> best(long userId, Source source, int n) {
                throw new IllegalStateException("the content generator is down (test)");
            }
        };
    }
}
