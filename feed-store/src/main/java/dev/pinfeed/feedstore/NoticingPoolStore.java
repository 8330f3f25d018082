package dev.pinfeed.feedstore;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A {@link PoolStore} whose every upsert, once it returned, is noticed in {@link QuietPools} for the users it wrote to:
 * every process that adds pool entries writes through one (feed-worker, feed-service's celebrity pulls and
 * regenerations, the operators' rebuilds and repairs). Removals need no notice: they never give a quiet pool something
 * to generate. A notice that fails goes to {@code noticeFailed} and the write stands (the mark it missed lapses within
 * its maximum age).
 */
public final class NoticingPoolStore implements PoolStore {

    private final PoolStore pools;
    private final QuietPools quiet;
    private final Consumer<RuntimeException> noticeFailed;

    public NoticingPoolStore(PoolStore pools, QuietPools quiet, Consumer<RuntimeException> noticeFailed) {
        this.pools = pools;
        this.quiet = quiet;
        this.noticeFailed = noticeFailed;
    }

    /** {@code pools} itself when {@code quiet} is {@link QuietPools#NONE}: nothing to notice. */
    public static PoolStore over(PoolStore pools, QuietPools quiet, Consumer<RuntimeException> noticeFailed) {
        return quiet == QuietPools.NONE ? pools : new NoticingPoolStore(pools, quiet, noticeFailed);
    }

    private void notice(Collection<PoolEntry> entries) {
        if (entries.isEmpty()) return;
        Set<Long> users = new LinkedHashSet<>();
        for (PoolEntry e : entries) users.add(e.userId());
        try {
            quiet.written(users);
        } catch (RuntimeException e) {
            noticeFailed.accept(e);
        }
    }

    @Override
    public void upsert(Collection<PoolEntry> entries) {
        pools.upsert(entries);
        notice(entries);
    }

    @Override
    public int upsert(Collection<PoolEntry> entries, int maxPerSource, int keepPerSource) {
        int removed = pools.upsert(entries, maxPerSource, keepPerSource);
        notice(entries);
        return removed;
    }

    @Override
    public int upsert(Collection<PoolEntry> entries, Predicate<PoolEntry> unseen, int maxPerSource, int keepPerSource) {
        int removed = pools.upsert(entries, unseen, maxPerSource, keepPerSource);
        notice(entries);
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
