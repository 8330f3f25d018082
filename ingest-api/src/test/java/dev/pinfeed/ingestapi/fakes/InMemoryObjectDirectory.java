package dev.pinfeed.ingestapi.fakes;

import dev.pinfeed.ingestapi.core.ObjectDirectory;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The directory in a map; {@link dev.pinfeed.ingestapi.core.ObjectDirectoryContract} holds it to the MySQL adapter's behaviour. */
public final class InMemoryObjectDirectory implements ObjectDirectory {

    private final Map<Long, Entry> entries = new ConcurrentHashMap<>();
    private final Map<Long, Entry> deletions = new ConcurrentHashMap<>();
    public volatile RuntimeException failRegister;
    public volatile RuntimeException failFind;
    public volatile RuntimeException failMarkDeleted;
    public int findCalls;

    @Override
    public void register(List<Entry> batch) {
        if (failRegister != null) throw failRegister;
        for (Entry e : batch) entries.putIfAbsent(e.id(), e);
    }

    @Override
    public synchronized Map<Long, Entry> find(Collection<Long> ids) {
        findCalls++;
        if (failFind != null) throw failFind;
        Map<Long, Entry> found = new HashMap<>();
        for (Long id : ids) {
            Entry e = deletions.containsKey(id) ? deletions.get(id) : entries.get(id);
            if (e != null) found.put(id, e);
        }
        return found;
    }

    @Override
    public void remove(List<Entry> batch) {
        for (Entry e : batch) entries.remove(e.id());
    }

    @Override
    public void markDeleted(List<Entry> batch) {
        if (failMarkDeleted != null) throw failMarkDeleted;
        for (Entry e : batch) deletions.putIfAbsent(e.id(), e.asDeleted());
    }

    public int size() {
        return entries.size();
    }
}
