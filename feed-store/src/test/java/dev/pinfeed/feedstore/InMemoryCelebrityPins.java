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
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/** {@link CelebrityPins} in memory, for unit tests; counts its writes. Ties on time: the larger pin id is newer, as in Redis. */
public final class InMemoryCelebrityPins implements CelebrityPins {

    private static final Comparator<RecentPin> NEWEST_FIRST =
            Comparator.comparingLong(RecentPin::createdAtMillis).thenComparing(p -> Long.toString(p.pinId()) + ":" + p.boardId()).reversed();

    private final int maxPerAuthor;
    private final Map<Long, Map<Long, RecentPin>> byAuthor = new HashMap<>();
    private final Set<Long> celebrities = new HashSet<>();
    public final AtomicInteger writes = new AtomicInteger();

    public InMemoryCelebrityPins(int maxPerAuthor) {
        this.maxPerAuthor = maxPerAuthor;
    }

    @Override
    public synchronized void record(RecentPin pin) {
        writes.addAndGet(2);
        Map<Long, RecentPin> pins = byAuthor.computeIfAbsent(pin.authorId(), a -> new HashMap<>());
        pins.put(pin.pinId(), pin);
        List<RecentPin> sorted = new ArrayList<>(pins.values());
        sorted.sort(NEWEST_FIRST);
        for (RecentPin old : sorted.subList(Math.min(maxPerAuthor, sorted.size()), sorted.size())) pins.remove(old.pinId());
        celebrities.add(pin.authorId());
    }

    @Override
    public synchronized void remove(long authorId, long pinId) {
        writes.incrementAndGet();
        Map<Long, RecentPin> pins = byAuthor.get(authorId);
        if (pins != null) pins.remove(pinId);
    }

    @Override
    public synchronized Set<Long> celebrities() {
        return Set.copyOf(celebrities);
    }

    @Override
    public synchronized Map<Long, List<RecentPin>> recent(Collection<Long> authorIds, long sinceMillis) {
        Map<Long, List<RecentPin>> out = new LinkedHashMap<>();
        for (long a : new LinkedHashSet<>(authorIds)) {
            List<RecentPin> pins = new ArrayList<>();
            for (RecentPin p : byAuthor.getOrDefault(a, Map.of()).values()) if (p.createdAtMillis() >= sinceMillis) pins.add(p);
            if (pins.isEmpty()) continue;
            pins.sort(NEWEST_FIRST);
            out.put(a, pins);
        }
        return out;
    }
}
