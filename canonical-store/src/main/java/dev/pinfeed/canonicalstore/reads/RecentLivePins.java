package dev.pinfeed.canonicalstore.reads;

import dev.pinfeed.idallocator.ShardedId;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Live pins read in the last {@code ttl}, kept in the process in front of {@link LivePins} (the Redis cache, then
 * MySQL): feed pages of many readers hydrate the same pins, and the multi-get and the decoding of 25 pins were nearly a
 * third of feed-service's sampled time per page. A pin served from here may be up to {@code ttl} old: its counts that much behind, a
 * delete seen that much later (the pipeline's own lag is of that order). Only live pins are kept, so a pin created
 * since is read at once. At most {@code max} pins: past it, the expired ones go, and all of them if none had.
 */
public final class RecentLivePins implements LivePins {

    /** The name hits and misses are reported under. */
    public static final String CACHE = "recent_pin";

    private record Kept(CanonicalPin pin, long until) {}

    private final LivePins store;
    private final long ttlMillis;
    private final int max;
    private final InstantSource clock;
    /** By {@link ShardedId#hashKey} of the pin's id. */
    private final Map<Long, Kept> kept = new ConcurrentHashMap<>();
    private final CacheListener listener;

    /** {@code listener} hears of the pins answered from here (hits) and asked of the store (misses), as cache {@value #CACHE}. */
    public RecentLivePins(LivePins store, Duration ttl, int max, InstantSource clock, CacheListener listener) {
        if (ttl.isNegative() || ttl.isZero()) throw new IllegalArgumentException("ttl must be > 0: " + ttl);
        if (max < 1) throw new IllegalArgumentException("max must be >= 1: " + max);
        this.store = store;
        this.ttlMillis = ttl.toMillis();
        this.max = max;
        this.clock = clock;
        this.listener = listener;
    }

    /** {@code store} itself when {@code ttl} is zero (kept nowhere), else the pins it read kept for {@code ttl}. */
    public static LivePins over(LivePins store, Duration ttl, int max, InstantSource clock, CacheListener listener) {
        return ttl.isZero() ? store : new RecentLivePins(store, ttl, max, clock, listener);
    }

    @Override
    public Map<Long, CanonicalPin> livePins(Collection<Long> pinIds) {
        long now = clock.millis();
        Map<Long, CanonicalPin> out = new LinkedHashMap<>();
        Set<Long> missing = new LinkedHashSet<>();
        for (Long id : pinIds) {
            Kept k = kept.get(ShardedId.hashKey(id));
            if (k != null && now < k.until()) out.put(id, k.pin());
            else missing.add(id);
        }
        listener.hits(CACHE, out.size());
        if (missing.isEmpty()) return out;
        listener.misses(CACHE, missing.size());
        Map<Long, CanonicalPin> read = store.livePins(missing);
        Map<Long, CanonicalPin> renewed = new HashMap<>(read.size() * 2);
        read.forEach((id, pin) -> renewed.put(id, unchanged(ShardedId.hashKey(id), pin)));
        if (kept.size() + read.size() > max) makeRoom(read.size(), now);
        long until = now + ttlMillis;
        renewed.forEach((id, pin) -> kept.put(ShardedId.hashKey(id), new Kept(pin, until)));
        // In the order asked, as the store answers.
        Map<Long, CanonicalPin> ordered = new LinkedHashMap<>();
        for (Long id : pinIds) {
            CanonicalPin p = out.containsKey(id) ? out.get(id) : renewed.get(id);
            if (p != null) ordered.put(id, p);
        }
        return ordered;
    }

    /**
     * {@code pin} as read again, or the instance kept before when it is unchanged: a hot pin read every second would
     * otherwise be a new object every second that lives a second, and objects that outlive a few young collections are
     * what each collection copies. The kept instance is also the one {@code PinFragments} knows by identity.
     */
    private CanonicalPin unchanged(long key, CanonicalPin pin) {
        Kept before = kept.get(key);
        return before != null && before.pin().equals(pin) ? before.pin() : pin;
    }

    private void makeRoom(int coming, long now) {
        kept.values().removeIf(k -> now >= k.until());
        if (kept.size() + coming > max) kept.clear();
    }
}
