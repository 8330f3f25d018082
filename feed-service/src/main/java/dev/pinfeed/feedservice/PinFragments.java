package dev.pinfeed.feedservice;

import dev.pinfeed.canonicalstore.reads.CanonicalPin;
import dev.pinfeed.httpkit.JsonFragment;
import dev.pinfeed.idallocator.ShardedId;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each pin's contract JSON, made once per version of the pin and reused by every feed page that shows it: pages of
 * different readers share most of their pins, and writing a page's 25 pins was the largest part of its serialization.
 * Keyed by pin id and checked against the whole pin, so a pin whose counts or text changed is serialized again: a
 * fragment never says anything its pin does not. At most {@code max} pins; past it, all of them go.
 */
final class PinFragments {

    private record Made(CanonicalPin pin, JsonFragment json) {}

    /** By {@link ShardedId#hashKey} of the pin's id. */
    private final Map<Long, Made> made = new ConcurrentHashMap<>();
    private final int max;

    PinFragments(int max) {
        if (max < 1) throw new IllegalArgumentException("max must be >= 1: " + max);
        this.max = max;
    }

    /** The pin as the contract writes it ({@link CanonicalHttpApi#pin}). */
    JsonFragment of(CanonicalPin pin) {
        long key = ShardedId.hashKey(pin.id());
        Made m = made.get(key);
        // The same instance (kept by RecentLivePins) is the usual hit, found without comparing fields.
        if (m != null && m.pin() == pin) return m.json();
        // An equal pin read again: its fragment kept under this instance, which the next pages bring.
        JsonFragment json = m != null && m.pin().equals(pin) ? m.json() : JsonFragment.of(CanonicalHttpApi.pin(pin));
        if (made.size() >= max) made.clear();
        made.put(key, new Made(pin, json));
        return json;
    }

    int size() {
        return made.size();
    }
}
