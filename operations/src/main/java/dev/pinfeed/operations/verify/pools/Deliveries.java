package dev.pinfeed.operations.verify.pools;

import dev.pinfeed.feedstore.Source;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.function.LongPredicate;

/**
 * The fan-out's ADD deliveries the feed worker has applied, per receiver: what {@code ./pinfeed verify pools}
 * expects in his pools or his feed. A (receiver, pin) delivered more than once (a replay, a second fan-out
 * of the pin) counts once, as its latest delivery.
 */
public final class Deliveries {

    /** One pin delivered to one receiver: why ({@code source}) and when the chunk was written (epoch ms). */
    public record Delivery(long pinId, Source source, long deliveredAt) {}

    private final LongPredicate wanted;
    private final Map<Long, Map<Long, Delivery>> byReceiver = new HashMap<>();
    private long count;

    /** Keeps the deliveries to the receivers {@code wanted} accepts. */
    public Deliveries(LongPredicate wanted) {
        this.wanted = wanted;
    }

    /** An ADD of {@code pinId} to {@code receiver}. */
    public void add(long receiver, long pinId, Source source, long deliveredAt) {
        if (!wanted.test(receiver)) return;
        count++;
        byReceiver.computeIfAbsent(receiver, r -> new HashMap<>()).merge(pinId, new Delivery(pinId, source, deliveredAt),
                (older, newer) -> newer.deliveredAt() >= older.deliveredAt() ? newer : older);
    }

    /** The pins delivered to {@code receiver}, by pin id. */
    public Map<Long, Delivery> to(long receiver) {
        return byReceiver.getOrDefault(receiver, Map.of());
    }

    /** Every receiver with a delivery, ascending. */
    public NavigableSet<Long> receivers() {
        return new TreeSet<>(byReceiver.keySet());
    }

    /** Deliveries kept, repeats included. */
    public long count() {
        return count;
    }
}
