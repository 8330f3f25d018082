package dev.pinfeed.feedstore;

import dev.pinfeed.feedstore.CelebrityPins.RecentPin;
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
import java.util.function.Function;

/**
 * Newest pins per owner in memory, as the Redis stores keep them (the in-memory {@link CelebrityPins} and
 * {@link InterestPins}): ties on time go to the larger member, {@code member} being the Redis store's member string.
 */
final class InMemoryRecentPins {

    private final int maxPerOwner;
    private final Comparator<RecentPin> newestFirst;
    private final Map<Long, Map<Long, RecentPin>> byOwner = new HashMap<>();
    private final Set<Long> owners = new HashSet<>();

    InMemoryRecentPins(int maxPerOwner, Function<RecentPin, String> member) {
        this.maxPerOwner = maxPerOwner;
        this.newestFirst = Comparator.comparingLong(RecentPin::createdAtMillis).thenComparing(member).reversed();
    }

    synchronized void record(long owner, RecentPin pin) {
        Map<Long, RecentPin> pins = byOwner.computeIfAbsent(owner, a -> new HashMap<>());
        pins.put(pin.pinId(), pin);
        List<RecentPin> sorted = new ArrayList<>(pins.values());
        sorted.sort(newestFirst);
        for (RecentPin old : sorted.subList(Math.min(maxPerOwner, sorted.size()), sorted.size())) pins.remove(old.pinId());
        owners.add(owner);
    }

    synchronized void remove(long owner, long pinId) {
        Map<Long, RecentPin> pins = byOwner.get(owner);
        if (pins != null) pins.remove(pinId);
    }

    synchronized Set<Long> owners() {
        return Set.copyOf(owners);
    }

    synchronized Map<Long, List<RecentPin>> recent(Collection<Long> ownerIds, long sinceMillis, int maxEach) {
        Map<Long, List<RecentPin>> out = new LinkedHashMap<>();
        for (long a : new LinkedHashSet<>(ownerIds)) {
            List<RecentPin> pins = new ArrayList<>();
            for (RecentPin p : byOwner.getOrDefault(a, Map.of()).values()) if (p.createdAtMillis() >= sinceMillis) pins.add(p);
            if (pins.isEmpty()) continue;
            pins.sort(newestFirst);
            out.put(a, List.copyOf(pins.subList(0, Math.min(maxEach, pins.size()))));
        }
        return out;
    }
}
