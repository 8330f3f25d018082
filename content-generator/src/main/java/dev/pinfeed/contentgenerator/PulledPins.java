package dev.pinfeed.contentgenerator;

import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.Source;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Per reader, the pins this process pulled (a celebrity's, a popular interest's) into his pools lately and the source each went in as, so that a
 * repeat pull (the overlap of {@code feed.celebrity.pull-overlap-ms}, or every first page of a reader who reads often)
 * writes only what is new to him. Forgetting is always safe: a pull writes again what it does not remember, and the
 * pools' checked upsert makes that idempotent. So the memory is bounded: a reader's pins created before his pull's
 * window are dropped, and past {@code max} pins in all the readers who pulled least recently are forgotten whole.
 *
 * <p>What remembering changes: a remembered pin cut from his pool by the trim stays cut (it would be cut again), and a
 * remembered pin purged by an unfollow comes back through the worker's follow backfill, not through the pull.
 */
final class PulledPins {

    private record Pulled(Source source, long createdAtMillis) {}

    private final int max;
    /** Reader → pin → as pulled; in access order, the least recent reader first. */
    private final LinkedHashMap<Long, Map<Long, Pulled>> byReader = new LinkedHashMap<>(16, 0.75f, true);
    private int size;

    PulledPins(int max) {
        if (max < 0) throw new IllegalArgumentException("max must be >= 0: " + max);
        this.max = max;
    }

    /**
     * Writes to {@code pools} the planned entries not pulled for {@code reader} yet (within the pools' bounds) and remembers
     * them; his pins created before {@code sinceMillis} will not be planned again. Returns how many were written.
     */
    int writeNew(long reader, List<PoolEntry> planned, long sinceMillis, PoolStore pools, int poolMax, int poolTrimTo) {
        List<PoolEntry> entries = notYet(reader, planned);
        if (!entries.isEmpty()) pools.upsert(entries, poolMax, poolTrimTo);
        remember(reader, entries, sinceMillis);
        return entries.size();
    }

    /** The planned entries this process has not pulled for {@code reader} yet, or pulled with another source. */
    synchronized List<PoolEntry> notYet(long reader, List<PoolEntry> planned) {
        Map<Long, Pulled> held = planned.isEmpty() ? null : byReader.get(reader);
        if (held == null) return planned;
        List<PoolEntry> out = new ArrayList<>(planned.size());
        for (PoolEntry e : planned) {
            Pulled p = held.get(e.pinId());
            if (p == null || p.source() != e.source()) out.add(e);
        }
        return out;
    }

    /** {@code written} are in his pools now; his pins created before {@code sinceMillis} will not be planned again. */
    synchronized void remember(long reader, List<PoolEntry> written, long sinceMillis) {
        if (max == 0) return;
        Map<Long, Pulled> held = byReader.get(reader);
        if (held == null) {
            if (written.isEmpty()) return;
            held = new HashMap<>();
            byReader.put(reader, held);
        }
        int before = held.size();
        held.values().removeIf(p -> p.createdAtMillis() < sinceMillis);
        for (PoolEntry e : written) held.put(e.pinId(), new Pulled(e.source(), e.createdAtMillis()));
        size += held.size() - before;
        if (held.isEmpty()) byReader.remove(reader);
        Iterator<Map<Long, Pulled>> leastRecent = byReader.values().iterator();
        while (size > max && leastRecent.hasNext()) {
            size -= leastRecent.next().size();
            leastRecent.remove();
        }
    }

    /** Pins remembered, over all readers. */
    synchronized int size() {
        return size;
    }
}
