package dev.pinfeed.feedstore;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@link PoolStore} and {@link PoolRows} in memory, for unit tests; {@link PoolStoreContract} and
 * {@link PoolRowsContract} hold it to the HBase store's behaviour. Besides the entries readers serve it
 * keeps what a damaged table can hold (entry rows no index points at, index rows pointing at nothing),
 * made only through {@link PoolRows}' deletes, as an operator's tools or a crash would leave them.
 */
public final class InMemoryPoolStore implements PoolStore, PoolRows {

    /** Best first; equal scores: the older (smaller) pin id first, as the HBase row order has it. */
    static final Comparator<PoolEntry> BEST_FIRST = Comparator.comparingDouble(PoolEntry::score).reversed()
            .thenComparingLong(PoolEntry::pinId);

    /** What identifies an entry row: the same (user, pool, score, pin) is the same row. */
    private record Row(long user, Source source, long scoreBits, long pin) {
        static Row of(PoolEntry e) {
            return new Row(e.userId(), e.source(), Double.doubleToLongBits(e.score()), e.pinId());
        }
    }

    /** Entries their index row points at: user → pin → entry. */
    private final Map<Long, Map<Long, PoolEntry>> byUser = new HashMap<>();
    /** Entry rows no index row points at. */
    private final Map<Row, PoolEntry> orphans = new LinkedHashMap<>();
    /** Index rows pointing at no entry row: user → pin → index row. */
    private final Map<Long, Map<Long, IndexRow>> dangling = new HashMap<>();
    private final Set<Delivery> delivered = new HashSet<>();
    /** Pins each user was shown (no expiry here: the HBase store's marks last {@code SHOWN_TTL}). */
    private final Map<Long, Set<Long>> shown = new HashMap<>();
    /** When each user's pools were last rebuilt. */
    private final Map<Long, Long> rebuilt = new HashMap<>();

    @Override
    public synchronized Set<Delivery> markDelivered(Collection<Delivery> deliveries) {
        Set<Delivery> before = new HashSet<>();
        for (Delivery d : deliveries) {
            if (!delivered.add(d)) before.add(d);
        }
        return before;
    }

    /** As in HBase: the new entry row and index row are written, the row the old index named is deleted; other orphans of the pin stay. */
    @Override
    public synchronized void upsert(Collection<PoolEntry> entries) {
        for (PoolEntry e : entries) {
            if (shown.getOrDefault(e.userId(), Set.of()).contains(e.pinId())) continue;
            PoolEntry old = byUser.getOrDefault(e.userId(), Map.of()).get(e.pinId());
            if (old != null && !PoolStore.displaces(e.source(), old.source())) continue;
            orphans.remove(Row.of(e)); // the same row, now pointed at
            Map<Long, IndexRow> d = dangling.get(e.userId());
            if (d != null) d.remove(e.pinId());
            byUser.computeIfAbsent(e.userId(), u -> new LinkedHashMap<>()).put(e.pinId(), e);
        }
    }

    @Override
    public synchronized void remove(long userId, Collection<Long> pinIds) {
        Map<Long, PoolEntry> pool = byUser.get(userId);
        if (pool != null) pinIds.forEach(pool::remove);
        Map<Long, IndexRow> d = dangling.get(userId);
        if (d != null) pinIds.forEach(d::remove);
    }

    @Override
    public synchronized void removeShown(long userId, Collection<Long> pinIds) {
        remove(userId, pinIds);
        shown.computeIfAbsent(userId, u -> new HashSet<>()).addAll(pinIds);
    }

    @Override
    public synchronized Set<Long> shownAmong(long userId, Collection<Long> pinIds) {
        Set<Long> out = new HashSet<>(pinIds);
        out.retainAll(shown.getOrDefault(userId, Set.of()));
        return out;
    }

    @Override
    public synchronized void forgetShown(long userId) {
        shown.remove(userId);
    }

    @Override
    public synchronized void markRebuilt(long userId, long atMillis) {
        rebuilt.put(userId, atMillis);
    }

    @Override
    public synchronized OptionalLong rebuiltAt(long userId) {
        Long at = rebuilt.get(userId);
        return at == null ? OptionalLong.empty() : OptionalLong.of(at);
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

    @Override
    public synchronized UserRows rows(long userId) {
        List<PoolEntry> orphaned = orphans.values().stream().filter(e -> e.userId() == userId).toList();
        return new UserRows(userId, all(userId), orphaned, List.copyOf(dangling.getOrDefault(userId, Map.of()).values()),
                shown.getOrDefault(userId, Set.of()));
    }

    @Override
    public synchronized List<UserRows> rowsAfter(long afterUserId, int maxUsers) {
        if (maxUsers < 1) throw new IllegalArgumentException("maxUsers must be >= 1: " + maxUsers);
        Set<Long> users = new TreeSet<>();
        byUser.forEach((u, pool) -> {
            if (!pool.isEmpty()) users.add(u);
        });
        dangling.forEach((u, d) -> {
            if (!d.isEmpty()) users.add(u);
        });
        orphans.keySet().forEach(r -> users.add(r.user()));
        return users.stream().filter(u -> u > afterUserId).limit(maxUsers).map(this::rows).toList();
    }

    /** A live entry's row deleted leaves its index row pointing at nothing. */
    @Override
    public synchronized void deleteEntryRows(Collection<PoolEntry> rows) {
        for (PoolEntry e : rows) {
            if (orphans.remove(Row.of(e)) != null) continue;
            Map<Long, PoolEntry> pool = byUser.get(e.userId());
            PoolEntry live = pool == null ? null : pool.get(e.pinId());
            if (live != null && Row.of(live).equals(Row.of(e))) {
                pool.remove(e.pinId());
                dangling.computeIfAbsent(e.userId(), u -> new LinkedHashMap<>())
                        .put(e.pinId(), new IndexRow(e.userId(), e.pinId(), e.source(), e.score()));
            }
        }
    }

    /** A live entry whose index row is deleted is an orphan row from then on. */
    @Override
    public synchronized void deleteIndexRows(long userId, Collection<Long> pinIds) {
        for (long pin : new LinkedHashSet<>(pinIds)) {
            Map<Long, PoolEntry> pool = byUser.get(userId);
            PoolEntry live = pool == null ? null : pool.remove(pin);
            if (live != null) orphans.put(Row.of(live), live);
            Map<Long, IndexRow> d = dangling.get(userId);
            if (d != null) d.remove(pin);
        }
    }
}
