package dev.pinfeed.feedstore;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A {@link PoolStore} whose reads ({@link #best}, {@link #all}) are speculative ({@link SpeculativeReads})
 * and whose writes, trims included, go to the primary only: the standby is a replica, written by
 * replication alone, so a write while the primary is down fails with the primary's
 * {@code StoreUnavailableException} and the caller retries or queues it. A read served by the standby
 * may miss the last few hundred ms of writes. Closes nothing: whoever built the stores closes them.
 */
public final class SpeculativePoolStore implements PoolStore {

    private final SpeculativeReads<PoolStore> reads;

    public SpeculativePoolStore(SpeculativeReads<PoolStore> reads) {
        this.reads = reads;
    }

    @Override
    public void upsert(Collection<PoolEntry> entries) {
        reads.write(s -> {
            s.upsert(entries);
            return null;
        });
    }

    /** On the primary entirely: the trim reads what it cuts from the store it cuts it in. */
    @Override
    public int upsert(Collection<PoolEntry> entries, int maxPerSource, int keepPerSource) {
        return reads.write(s -> s.upsert(entries, maxPerSource, keepPerSource));
    }

    @Override
    public Set<Delivery> markDelivered(Collection<Delivery> deliveries) {
        return reads.write(s -> s.markDelivered(deliveries));
    }

    @Override
    public int upsert(Collection<PoolEntry> entries, Predicate<PoolEntry> unseen, int maxPerSource, int keepPerSource) {
        return reads.write(s -> s.upsert(entries, unseen, maxPerSource, keepPerSource));
    }

    @Override
    public void removeShown(long userId, Collection<Long> pinIds) {
        reads.write(s -> {
            s.removeShown(userId, pinIds);
            return null;
        });
    }

    @Override
    public void removeShown(long userId, Collection<Long> shown, Collection<Long> alsoRemoved) {
        reads.write(s -> {
            s.removeShown(userId, shown, alsoRemoved);
            return null;
        });
    }

    @Override
    public void remove(long userId, Collection<Long> pinIds) {
        reads.write(s -> {
            s.remove(userId, pinIds);
            return null;
        });
    }

    @Override
    public void remove(Map<Long, ? extends Collection<Long>> pinsByUser) {
        reads.write(s -> {
            s.remove(pinsByUser);
            return null;
        });
    }

    @Override
    public List<PoolEntry> best(long userId, Source source, int n) {
        return reads.read(s -> s.best(userId, source, n));
    }

    @Override
    public Map<Source, List<PoolEntry>> bestOfEach(long userId, Set<Source> sources, int n, int rowsAtMost) {
        return reads.read(s -> s.bestOfEach(userId, sources, n, rowsAtMost));
    }

    @Override
    public Set<Long> shownAmong(long userId, Collection<Long> pinIds) {
        return reads.read(s -> s.shownAmong(userId, pinIds));
    }

    @Override
    public List<PoolEntry> all(long userId) {
        return reads.read(s -> s.all(userId));
    }

    @Override
    public int trim(long userId, int maxPerSource) {
        return reads.write(s -> s.trim(userId, maxPerSource));
    }
}
