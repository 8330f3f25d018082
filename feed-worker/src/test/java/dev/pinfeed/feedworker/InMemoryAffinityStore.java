package dev.pinfeed.feedworker;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@link AffinityStore} in memory, for unit tests; {@link AffinityStoreContract} holds it to the Redis store. */
public final class InMemoryAffinityStore implements AffinityStore {

    private final Map<Long, Set<Long>> liked = new HashMap<>();
    private final Map<Pair, Long> counts = new HashMap<>();

    @Override
    public synchronized Map<Pair, Long> affinities(Collection<Pair> pairs) {
        Map<Pair, Long> out = new LinkedHashMap<>();
        for (Pair p : pairs) out.put(p, counts.getOrDefault(p, 0L));
        return out;
    }

    @Override
    public synchronized void apply(List<LikeChange> changes) {
        for (LikeChange c : changes) {
            Set<Long> pins = liked.computeIfAbsent(c.userId(), u -> new HashSet<>());
            boolean changed = c.liked() ? pins.add(c.pinId()) : pins.remove(c.pinId());
            if (changed) counts.merge(new Pair(c.userId(), c.authorId()), c.liked() ? 1L : -1L, (a, b) -> a + b <= 0 ? null : a + b);
        }
    }
}
