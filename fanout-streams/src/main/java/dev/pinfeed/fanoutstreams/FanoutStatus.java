package dev.pinfeed.fanoutstreams;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Store outages the fan-out ran into, for the admin readiness: a step that could not read the graph
 * (or the feed store) leaves its job pending and reports the store here. An outage counts while it
 * was seen within {@code window}: every turn retries, so a store that came back stops being reported
 * shortly after, and one still down keeps being seen.
 */
public final class FanoutStatus {

    /** The latest failure seen for one store. */
    public record Outage(String store, String message, long lastSeenMillis) {}

    private final Clock clock;
    private final Duration window;
    private final Map<String, Outage> outages = new ConcurrentHashMap<>();

    public FanoutStatus(Clock clock, Duration window) {
        this.clock = clock;
        this.window = window;
    }

    public void outage(String store, String message) {
        outages.put(store, new Outage(store, message, clock.millis()));
    }

    /** Outages seen within the window, by store name. */
    public List<Outage> current() {
        long since = clock.millis() - window.toMillis();
        List<Outage> out = new ArrayList<>();
        for (Outage o : outages.values()) if (o.lastSeenMillis() >= since) out.add(o);
        return out;
    }
}
