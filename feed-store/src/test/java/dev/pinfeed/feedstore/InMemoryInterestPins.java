package dev.pinfeed.feedstore;

import dev.pinfeed.feedstore.CelebrityPins.RecentPin;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/** {@link InterestPins} in memory, for unit tests; counts its writes. Ties on time: the larger member is newer, as in Redis. */
public final class InMemoryInterestPins implements InterestPins {

    private final InMemoryRecentPins pins;
    public final AtomicInteger writes = new AtomicInteger();

    public InMemoryInterestPins(int maxPerInterest) {
        this.pins = new InMemoryRecentPins(maxPerInterest, p -> p.pinId() + ":" + p.boardId() + ":" + p.authorId());
    }

    @Override
    public void record(long interestId, RecentPin pin) {
        writes.addAndGet(2);
        pins.record(interestId, pin);
    }

    @Override
    public void remove(long interestId, long pinId) {
        writes.incrementAndGet();
        pins.remove(interestId, pinId);
    }

    @Override
    public Set<Long> popular() {
        return pins.owners();
    }

    @Override
    public Map<Long, List<RecentPin>> recent(Collection<Long> interestIds, long sinceMillis, int maxEach) {
        return pins.recent(interestIds, sinceMillis, maxEach);
    }
}
