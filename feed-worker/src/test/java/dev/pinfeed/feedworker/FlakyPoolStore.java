package dev.pinfeed.feedworker;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.Source;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/** A pool store that goes down when the test says: every call, or upserts after the first few. */
public final class FlakyPoolStore implements PoolStore {

    private final PoolStore delegate;
    public volatile boolean down;
    public volatile int upsertsLeft = Integer.MAX_VALUE;
    /** Every entry written as unseen (of a fan-out chunk marked delivered for the first time), in order. */
    public final List<PoolEntry> writtenUnseen = new CopyOnWriteArrayList<>();

    public FlakyPoolStore(PoolStore delegate) {
        this.delegate = delegate;
    }

    private void check() {
        if (down) throw new StoreUnavailableException("hbase-primary", "connection refused (test)");
    }

    private void checkUpsert() {
        check();
        if (upsertsLeft-- <= 0) throw new StoreUnavailableException("hbase-primary", "region server gone (test)");
    }

    @Override
    public void upsert(Collection<PoolEntry> entries) {
        checkUpsert();
        delegate.upsert(entries);
    }

    @Override
    public int upsert(Collection<PoolEntry> entries, int maxPerSource, int keepPerSource) {
        checkUpsert();
        return delegate.upsert(entries, maxPerSource, keepPerSource);
    }

    @Override
    public Set<Delivery> markDelivered(Collection<Delivery> deliveries) {
        check();
        return delegate.markDelivered(deliveries);
    }

    @Override
    public int upsert(Collection<PoolEntry> entries, Predicate<PoolEntry> unseen, int maxPerSource, int keepPerSource) {
        checkUpsert();
        int removed = delegate.upsert(entries, unseen, maxPerSource, keepPerSource);
        entries.stream().filter(unseen).forEach(writtenUnseen::add);
        return removed;
    }

    @Override
    public void removeShown(long userId, Collection<Long> pinIds) {
        check();
        delegate.removeShown(userId, pinIds);
    }

    @Override
    public void remove(long userId, Collection<Long> pinIds) {
        check();
        delegate.remove(userId, pinIds);
    }

    @Override
    public List<PoolEntry> best(long userId, Source source, int n) {
        check();
        return delegate.best(userId, source, n);
    }

    @Override
    public List<PoolEntry> all(long userId) {
        check();
        return delegate.all(userId);
    }

    @Override
    public int trim(long userId, int maxPerSource) {
        check();
        return delegate.trim(userId, maxPerSource);
    }
}
