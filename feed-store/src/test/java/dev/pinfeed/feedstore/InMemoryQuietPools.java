package dev.pinfeed.feedstore;

import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** {@link QuietPools} in a map on an injected clock, for unit tests; {@link QuietPoolsContract} holds it to the Redis store's behaviour. */
public final class InMemoryQuietPools implements QuietPools {

    private record Held(String value, long expiresAt) {}

    private final Map<Long, Held> held = new ConcurrentHashMap<>();
    private final Clock clock;
    private final Duration maxAge;
    private final AtomicLong tickets = new AtomicLong();

    public InMemoryQuietPools(Clock clock, Duration maxAge) {
        this.clock = clock;
        this.maxAge = maxAge;
    }

    /** A store that is down: every call throws {@code failure}. */
    public static QuietPools failingWith(RuntimeException failure) {
        return new QuietPools() {
            @Override
            public Look look(long userId) {
                throw failure;
            }

            @Override
            public boolean markQuiet(long userId, Look look) {
                throw failure;
            }

            @Override
            public void written(Collection<Long> userIds) {
                throw failure;
            }
        };
    }

    private String live(long userId) {
        Held h = held.get(userId);
        return h == null || h.expiresAt() <= clock.millis() ? null : h.value();
    }

    @Override
    public synchronized Look look(long userId) {
        if ("q".equals(live(userId))) return Look.QUIET;
        String ticket = "t" + tickets.incrementAndGet();
        held.put(userId, new Held(ticket, clock.millis() + maxAge.toMillis()));
        return new Look(false, ticket);
    }

    @Override
    public synchronized boolean markQuiet(long userId, Look look) {
        if (look.ticket() == null || !look.ticket().equals(live(userId))) return false;
        held.put(userId, new Held("q", clock.millis() + maxAge.toMillis()));
        return true;
    }

    @Override
    public synchronized void written(Collection<Long> userIds) {
        userIds.forEach(held::remove);
    }
}
