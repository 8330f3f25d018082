package dev.pinfeed.feedstore;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link QuietPools} that remembers, for {@code ttl}, the readers whose pools it saw quiet (a quiet look, or a mark), so
 * that a reader asking for his first page again within it ({@link #knownQuiet}) skips his generation without a store
 * call: most first pages of a burst of refreshes find nothing new.
 *
 * <p>The price: a write by another process (the feed-worker's fan-out, another feed-service's celebrity pull) reaches
 * the reader's first page up to {@code ttl} later, on top of the pipeline's own lag; this process's own pool writes
 * (noticed through {@link #written}, as {@link NoticingPoolStore} does) end what it remembers of their readers at once,
 * and a look or mark under way while one of them lands is not remembered.
 *
 * <p>Bounded: at most {@code maxUsers} readers; past it, the expired ones go, and a reader who does not fit is not
 * remembered.
 */
public final class RememberedQuietPools implements QuietPools {

    private final QuietPools store;
    private final long ttlMillis;
    private final InstantSource clock;
    /** Until when each reader's pools are known quiet. */
    private final Map<Long, Long> quietUntil = new ConcurrentHashMap<>();
    /** A look or mark is remembered only if no notice of this process came meanwhile; a notice counts inside {@code quietUntil.compute}. */
    private final GuardedKeeps guard;

    public RememberedQuietPools(QuietPools store, Duration ttl, int maxUsers, InstantSource clock) {
        if (ttl.isNegative() || ttl.isZero()) throw new IllegalArgumentException("ttl must be > 0: " + ttl);
        if (maxUsers < 1) throw new IllegalArgumentException("maxUsers must be >= 1: " + maxUsers);
        this.store = store;
        this.ttlMillis = ttl.toMillis();
        this.guard = new GuardedKeeps(maxUsers);
        this.clock = clock;
    }

    /** {@code store} itself when {@code ttl} is zero (nothing remembered), else the store remembering. */
    public static QuietPools over(QuietPools store, Duration ttl, int maxUsers, InstantSource clock) {
        return ttl.isZero() ? store : new RememberedQuietPools(store, ttl, maxUsers, clock);
    }

    @Override
    public boolean knownQuiet(long userId) {
        Long until = quietUntil.get(userId);
        return until != null && clock.millis() < until;
    }

    @Override
    public Look look(long userId) {
        long before = guard.writesBefore(userId);
        Look look = store.look(userId);
        if (look.quiet()) remember(userId, before);
        return look;
    }

    @Override
    public boolean markQuiet(long userId, Look look) {
        long before = guard.writesBefore(userId);
        boolean marked = store.markQuiet(userId, look);
        if (marked) remember(userId, before);
        return marked;
    }

    @Override
    public void written(Collection<Long> userIds) {
        for (long user : userIds) {
            quietUntil.compute(user, (u, cur) -> {
                guard.wrote(u);
                return null;
            });
        }
        store.written(userIds);
    }

    private void remember(long userId, long noticesBefore) {
        long now = clock.millis();
        guard.keep(quietUntil, userId, now + ttlMillis, noticesBefore, until -> now >= until);
    }

    @Override
    public void close() {
        store.close();
    }
}
