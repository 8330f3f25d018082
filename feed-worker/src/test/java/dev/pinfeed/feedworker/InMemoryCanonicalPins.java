package dev.pinfeed.feedworker;

import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/** {@link CanonicalPins} in memory, for unit tests: pins, deletions and like counts set by the test. */
public final class InMemoryCanonicalPins implements CanonicalPins {

    private final Map<Long, PinFacts> pins = new LinkedHashMap<>();
    private final Set<Long> deleted = new HashSet<>();
    private final Map<Long, Long> likes = new HashMap<>();

    public synchronized PinFacts add(PinFacts pin) {
        pins.put(pin.pinId(), pin);
        return pin;
    }

    public synchronized void delete(long pinId) {
        deleted.add(pinId);
    }

    public synchronized void likes(long pinId, long count) {
        likes.put(pinId, count);
    }

    @Override
    public synchronized List<PinFacts> newestOfUser(long userId, int limit) {
        return newest(p -> p.authorId() == userId, limit);
    }

    @Override
    public synchronized List<PinFacts> newestOfBoard(long boardId, int limit) {
        return newest(p -> p.boardId() == boardId, limit);
    }

    private List<PinFacts> newest(Predicate<PinFacts> which, int limit) {
        return pins.values().stream().filter(which).filter(p -> !deleted.contains(p.pinId()))
                .sorted(Comparator.comparingLong(PinFacts::createdAtMillis).thenComparingLong(PinFacts::pinId).reversed()).limit(limit).toList();
    }

    @Override
    public synchronized Map<Long, PinFacts> pins(Collection<Long> pinIds) {
        Map<Long, PinFacts> out = new HashMap<>();
        for (Long id : pinIds) if (pins.containsKey(id)) out.put(id, pins.get(id));
        return out;
    }

    @Override
    public synchronized Map<Long, Long> likeCounts(Collection<Long> pinIds) {
        Map<Long, Long> out = new HashMap<>();
        for (Long id : pinIds) out.put(id, likes.getOrDefault(id, 0L));
        return out;
    }
}
