package dev.pinfeed.ingestapi.core;

import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps recently seen directory entries in memory. An entry's owner and board never change, and a
 * deleted entry stays deleted, so those are never stale. A live pin may be deleted through another
 * instance: it is trusted for {@code liveTtl} after it was read, then read again, so this instance
 * refuses likes of a pin deleted elsewhere within that time. Misses are not cached because the
 * object may be created a moment later.
 */
public final class CachingObjectDirectory implements ObjectDirectory {

    private record Cached(Entry entry, Instant readAt) {}

    private final ObjectDirectory store;
    private final Duration liveTtl;
    private final InstantSource clock;
    private final Map<Long, Cached> cache;

    public CachingObjectDirectory(ObjectDirectory store, int maxEntries, Duration liveTtl, InstantSource clock) {
        this.store = store;
        this.liveTtl = liveTtl;
        this.clock = clock;
        this.cache = new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Cached> eldest) {
                return size() > maxEntries;
            }
        };
    }

    @Override
    public void register(List<Entry> entries) {
        store.register(entries);
    }

    /** Caches entries once their create events are durable. */
    public void remember(Collection<Entry> entries) {
        Instant now = clock.instant();
        synchronized (cache) {
            for (Entry e : entries) {
                Cached old = cache.get(e.id());
                // A deletion read earlier wins over a live copy read before it was recorded.
                if (old == null || !old.entry().deleted() || e.deleted()) cache.put(e.id(), new Cached(e, now));
            }
        }
    }

    @Override
    public Map<Long, Entry> find(Collection<Long> ids) {
        Map<Long, Entry> found = new HashMap<>();
        List<Long> missing = new ArrayList<>();
        Instant staleBefore = clock.instant().minus(liveTtl);
        synchronized (cache) {
            for (Long id : ids) {
                Cached c = cache.get(id);
                if (c != null && !mayHaveBeenDeleted(c, staleBefore)) found.put(id, c.entry()); else missing.add(id);
            }
        }
        if (!missing.isEmpty()) {
            Map<Long, Entry> loaded = store.find(missing);
            remember(loaded.values());
            found.putAll(loaded);
        }
        return found;
    }

    /** Only pins can be deleted; a live one read before {@code staleBefore} is read again. */
    private static boolean mayHaveBeenDeleted(Cached c, Instant staleBefore) {
        return !c.entry().deleted() && c.readAt().isBefore(staleBefore) && ShardedId.decode(c.entry().id()).type() == ObjectType.PIN;
    }

    @Override
    public void remove(List<Entry> entries) {
        synchronized (cache) {
            for (Entry e : entries) cache.remove(e.id());
        }
        store.remove(entries);
    }

    /** Records the deletions in the store, then in this cache (this instance refuses at once). */
    @Override
    public void markDeleted(List<Entry> entries) {
        if (entries.isEmpty()) return;
        List<Entry> deleted = entries.stream().map(Entry::asDeleted).toList();
        store.markDeleted(deleted);
        remember(deleted);
    }

    @Override
    public void close() {
        store.close();
    }
}
