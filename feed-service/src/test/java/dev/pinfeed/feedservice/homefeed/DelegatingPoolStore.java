package dev.pinfeed.feedservice.homefeed;

import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.Source;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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

    /**
     * Pools whose reads wait until {@code release} is counted down, then pass on: a content generator past any deadline,
     * finishing when the test says. A read not released within 30 s (or interrupted) fails, so a forgotten release fails loudly.
     */
    public static PoolStore heldReads(PoolStore pools, CountDownLatch release) {
        return new DelegatingPoolStore(pools) {
            @Override
            public List<PoolEntry> best(long userId, Source source, int n) {
                try {
                    if (!release.await(30, TimeUnit.SECONDS)) throw new IllegalStateException("pool read never released (test)");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("pool read interrupted (test)", e);
                }
                return super.best(userId, source, n);
            }
        };
    }
}
