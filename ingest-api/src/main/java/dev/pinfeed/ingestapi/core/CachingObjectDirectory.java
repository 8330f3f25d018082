package dev.pinfeed.ingestapi.core;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps recently seen directory entries in memory. Entries never change once written (an object's
 * owner and board are fixed at creation), so a cached entry is never stale; misses are not cached
 * because the object may be created a moment later.
 */
public final class CachingObjectDirectory implements ObjectDirectory {

    private final ObjectDirectory store;
    private final Map<Long, Entry> cache;

    public CachingObjectDirectory(ObjectDirectory store, int maxEntries) {
        this.store = store;
        this.cache = new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Entry> eldest) {
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
        synchronized (cache) {
            for (Entry e : entries) cache.put(e.id(), e);
        }
    }

    @Override
    public Map<Long, Entry> find(Collection<Long> ids) {
        Map<Long, Entry> found = new HashMap<>();
        List<Long> missing = new ArrayList<>();
        synchronized (cache) {
            for (Long id : ids) {
                Entry e = cache.get(id);
                if (e != null) found.put(id, e); else missing.add(id);
            }
        }
        if (!missing.isEmpty()) {
            Map<Long, Entry> loaded = store.find(missing);
            remember(loaded.values());
            found.putAll(loaded);
        }
        return found;
    }

    @Override
    public void remove(List<Entry> entries) {
        synchronized (cache) {
            for (Entry e : entries) cache.remove(e.id());
        }
        store.remove(entries);
    }

    @Override
    public void close() {
        store.close();
    }
}
