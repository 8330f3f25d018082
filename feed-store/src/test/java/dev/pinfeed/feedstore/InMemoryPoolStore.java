package dev.pinfeed.feedstore;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@link PoolStore} in memory, for unit tests; {@link PoolStoreContract} holds it to the HBase store's behaviour. */
public final class InMemoryPoolStore implements PoolStore {

    /** Best first; equal scores: the older (smaller) pin id first, as the HBase row order has it. */
    static final Comparator<PoolEntry> BEST_FIRST = Comparator.comparingDouble(PoolEntry::score).reversed()
            .thenComparingLong(PoolEntry::pinId);

    private final Map<Long, Map<Long, PoolEntry>> byUser = new HashMap<>();
    private final Set<Delivery> delivered = new HashSet<>();

    @Override
    public synchronized Set<Delivery> markDelivered(Collection<Delivery> deliveries) {
        Set<Delivery> before = new HashSet<>();
        for (Delivery d : deliveries) {
            if (!delivered.add(d)) before.add(d);
        }
        return before;
    }

    @Override
    public synchronized void upsert(Collection<PoolEntry> entries) {
        for (PoolEntry e : entries) byUser.computeIfAbsent(e.userId(), u -> new LinkedHashMap<>()).put(e.pinId(), e);
    }

    @Override
    public synchronized void remove(long userId, Collection<Long> pinIds) {
        Map<Long, PoolEntry> pool = byUser.get(userId);
        if (pool != null) pinIds.forEach(pool::remove);
    }

    @Override
    public synchronized List<PoolEntry> best(long userId, Source source, int n) {
        return byUser.getOrDefault(userId, Map.of()).values().stream().filter(e -> e.source() == source).sorted(BEST_FIRST)
                .limit(Math.max(0, n)).toList();
    }

    @Override
    public synchronized List<PoolEntry> all(long userId) {
        List<PoolEntry> out = new ArrayList<>();
        for (Source s : Source.values()) out.addAll(best(userId, s, Integer.MAX_VALUE));
        return out;
    }

    @Override
    public synchronized int trim(long userId, int maxPerSource) {
        int removed = 0;
        for (Source s : Source.values()) {
            List<PoolEntry> pool = best(userId, s, Integer.MAX_VALUE);
            for (int i = maxPerSource; i < pool.size(); i++) {
                byUser.get(userId).remove(pool.get(i).pinId());
                removed++;
            }
        }
        return removed;
    }
}
