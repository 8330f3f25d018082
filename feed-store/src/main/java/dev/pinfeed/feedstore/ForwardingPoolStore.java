package dev.pinfeed.feedstore;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A {@link PoolStore} that passes every call on to another, the store's own implementations included (never the
 * interface's defaults), and calls {@link #afterUpsert} once each upsert returned: decorators that act on written entries
 * extend it and override that alone.
 */
public abstract class ForwardingPoolStore implements PoolStore {

    protected final PoolStore pools;

    protected ForwardingPoolStore(PoolStore pools) {
        this.pools = pools;
    }

    /** After an upsert of {@code entries} returned (they are stored). */
    protected abstract void afterUpsert(Collection<PoolEntry> entries);

    @Override
    public void upsert(Collection<PoolEntry> entries) {
        pools.upsert(entries);
        afterUpsert(entries);
    }

    @Override
    public int upsert(Collection<PoolEntry> entries, int maxPerSource, int keepPerSource) {
        int removed = pools.upsert(entries, maxPerSource, keepPerSource); // the store's own (cheaper) bounded upsert
        afterUpsert(entries);
        return removed;
    }

    @Override
    public int upsert(Collection<PoolEntry> entries, Predicate<PoolEntry> unseen, int maxPerSource, int keepPerSource) {
        int removed = pools.upsert(entries, unseen, maxPerSource, keepPerSource);
        afterUpsert(entries);
        return removed;
    }

    @Override
    public Set<Delivery> markDelivered(Collection<Delivery> deliveries) {
        return pools.markDelivered(deliveries);
    }

    @Override
    public void remove(long userId, Collection<Long> pinIds) {
        pools.remove(userId, pinIds);
    }

    @Override
    public void removeShown(long userId, Collection<Long> pinIds) {
        pools.removeShown(userId, pinIds);
    }

    @Override
    public void removeShown(long userId, Collection<Long> shown, Collection<Long> alsoRemoved) {
        pools.removeShown(userId, shown, alsoRemoved);
    }

    @Override
    public Set<Long> shownAmong(long userId, Collection<Long> pinIds) {
        return pools.shownAmong(userId, pinIds);
    }

    @Override
    public void remove(Map<Long, ? extends Collection<Long>> pinsByUser) {
        pools.remove(pinsByUser);
    }

    @Override
    public List<PoolEntry> best(long userId, Source source, int n) {
        return pools.best(userId, source, n);
    }

    @Override
    public Map<Source, List<PoolEntry>> bestOfEach(long userId, Set<Source> sources, int n, int rowsAtMost) {
        return pools.bestOfEach(userId, sources, n, rowsAtMost);
    }

    @Override
    public List<PoolEntry> all(long userId) {
        return pools.all(userId);
    }

    @Override
    public int trim(long userId, int maxPerSource) {
        return pools.trim(userId, maxPerSource);
    }

    @Override
    public void close() {
        pools.close();
    }
}
