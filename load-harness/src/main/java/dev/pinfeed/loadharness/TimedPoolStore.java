package dev.pinfeed.loadharness;

import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.Source;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A {@link PoolStore} that tells, after each upsert returned (the entries are in HBase), how many
 * entries of each pin it wrote: how the fan-out harness sees when a pin reached its receivers' pools
 * without polling HBase. Everything else passes through.
 */
final class TimedPoolStore implements PoolStore {

    @FunctionalInterface
    interface Listener {
        /** {@code entries} entries of {@code pinId} are stored, as of {@code atNanos} ({@link System#nanoTime}). */
        void written(long pinId, int entries, long atNanos);
    }

    private final PoolStore delegate;
    private final Listener listener;

    TimedPoolStore(PoolStore delegate, Listener listener) {
        this.delegate = delegate;
        this.listener = listener;
    }

    @Override
    public void upsert(Collection<PoolEntry> entries) {
        delegate.upsert(entries);
        report(entries);
    }

    @Override
    public int upsert(Collection<PoolEntry> entries, int maxPerSource, int keepPerSource) {
        int removed = delegate.upsert(entries, maxPerSource, keepPerSource); // the store's own (cheaper) bounded upsert
        report(entries);
        return removed;
    }

    @Override
    public Set<Delivery> markDelivered(Collection<Delivery> deliveries) {
        return delegate.markDelivered(deliveries);
    }

    @Override
    public int upsert(Collection<PoolEntry> entries, Predicate<PoolEntry> unseen, int maxPerSource, int keepPerSource) {
        int removed = delegate.upsert(entries, unseen, maxPerSource, keepPerSource);
        report(entries);
        return removed;
    }

    private void report(Collection<PoolEntry> entries) {
        long at = System.nanoTime();
        Map<Long, Integer> perPin = new HashMap<>();
        for (PoolEntry e : entries) perPin.merge(e.pinId(), 1, Integer::sum);
        perPin.forEach((pin, n) -> listener.written(pin, n, at));
    }

    @Override
    public void remove(long userId, Collection<Long> pinIds) {
        delegate.remove(userId, pinIds);
    }

    @Override
    public void remove(Map<Long, ? extends Collection<Long>> pinsByUser) {
        delegate.remove(pinsByUser);
    }

    @Override
    public List<PoolEntry> best(long userId, Source source, int n) {
        return delegate.best(userId, source, n);
    }

    @Override
    public Map<Source, List<PoolEntry>> bestOfEach(long userId, Set<Source> sources, int n, int rowsAtMost) {
        return delegate.bestOfEach(userId, sources, n, rowsAtMost);
    }

    @Override
    public List<PoolEntry> all(long userId) {
        return delegate.all(userId);
    }

    @Override
    public int trim(long userId, int maxPerSource) {
        return delegate.trim(userId, maxPerSource);
    }
}
