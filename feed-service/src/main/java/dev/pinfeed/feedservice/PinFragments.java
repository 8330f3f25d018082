package dev.pinfeed.feedservice;

import dev.pinfeed.canonicalstore.reads.CacheListener;
import dev.pinfeed.canonicalstore.reads.CanonicalPin;
import dev.pinfeed.httpkit.JsonFragment;
import dev.pinfeed.idallocator.ShardedId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each pin's contract JSON, made once per version of the pin and reused by every feed page that shows it: pages of
 * different readers share most of their pins, and writing a page's 25 pins was the largest part of its serialization.
 * Keyed by pin id and checked against the whole pin, so a pin whose counts or text changed is serialized again: a
 * fragment never says anything its pin does not. At most {@code max} pins; past it, all of them go.
 */
final class PinFragments {

    /** The name hits and misses are reported under. */
    static final String CACHE = "pin_json";

    private record Made(CanonicalPin pin, JsonFragment json) {}

    /** By {@link ShardedId#hashKey} of the pin's id. */
    private final Map<Long, Made> made = new ConcurrentHashMap<>();
    private final int max;
    private final CacheListener listener;

    /** {@code listener} hears of the pins whose JSON was kept (hits) and made (misses), as cache {@value #CACHE}. */
    PinFragments(int max, CacheListener listener) {
        if (max < 1) throw new IllegalArgumentException("max must be >= 1: " + max);
        this.max = max;
        this.listener = listener;
    }

    /** The pins as the contract writes them ({@link CanonicalHttpApi#pin}), in order. */
    List<JsonFragment> of(List<CanonicalPin> pins) {
        List<JsonFragment> out = new ArrayList<>(pins.size());
        int misses = 0;
        for (CanonicalPin pin : pins) {
            long key = ShardedId.hashKey(pin.id());
            Made m = made.get(key);
            // The same instance (kept by RecentLivePins, or parsed once from the same row) is the usual hit.
            if (m != null && m.pin() == pin) {
                out.add(m.json());
                continue;
            }
            // An equal pin read again: its fragment kept under this instance, which the next pages bring.
            boolean equal = m != null && m.pin().equals(pin);
            JsonFragment json = equal ? m.json() : JsonFragment.of(CanonicalHttpApi.pin(pin));
            if (!equal) misses++;
            if (made.size() >= max) made.clear();
            made.put(key, new Made(pin, json));
            out.add(json);
        }
        listener.hits(CACHE, pins.size() - misses);
        listener.misses(CACHE, misses);
        return out;
    }

    int size() {
        return made.size();
    }
}
