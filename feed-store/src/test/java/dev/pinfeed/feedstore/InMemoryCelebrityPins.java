package dev.pinfeed.feedstore;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/** {@link CelebrityPins} in memory, for unit tests; counts its writes. Ties on time: the larger pin id is newer, as in Redis. */
public final class InMemoryCelebrityPins implements CelebrityPins {

    private final InMemoryRecentPins pins;
    public final AtomicInteger writes = new AtomicInteger();

    public InMemoryCelebrityPins(int maxPerAuthor) {
        this.pins = new InMemoryRecentPins(maxPerAuthor, p -> p.pinId() + ":" + p.boardId());
    }

    @Override
    public void record(RecentPin pin) {
        writes.addAndGet(2);
        pins.record(pin.authorId(), pin);
    }

    @Override
    public void remove(long authorId, long pinId) {
        writes.incrementAndGet();
        pins.remove(authorId, pinId);
    }

    @Override
    public Set<Long> celebrities() {
        return pins.owners();
    }

    @Override
    public Map<Long, List<RecentPin>> recent(Collection<Long> authorIds, long sinceMillis) {
        return pins.recent(authorIds, sinceMillis, Integer.MAX_VALUE);
    }
}
