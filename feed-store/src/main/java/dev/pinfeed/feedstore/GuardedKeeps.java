package dev.pinfeed.feedstore;

import dev.pinfeed.config.Mix64;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Predicate;

/**
 * The rules for what a process keeps per user in memory (pages read ahead, first page views, pools found quiet): at most
 * {@code maxUsers} users (past it, the expired entries go, and a user who does not fit is not kept), and what was read
 * while this process wrote to the user is not kept. Writes are counted per bucket of users; a read takes the count
 * before it reads ({@link #writesBefore}) and its result is kept only if the count has not moved.
 */
final class GuardedKeeps {

    private final AtomicLongArray writes = new AtomicLongArray(4096);
    private final int maxUsers;

    GuardedKeeps(int maxUsers) {
        this.maxUsers = maxUsers;
    }

    /** The user's count of writes, taken before a read whose result may be kept. */
    long writesBefore(long userId) {
        return writes.get(bucket(userId));
    }

    /**
     * This process wrote to the user. Called inside a {@code compute} of his entry in a map {@link #keep} fills, so that
     * the write and a keep of that map see one another.
     */
    void wrote(long userId) {
        writes.incrementAndGet(bucket(userId));
    }

    /** Keeps {@code value} as the user's in {@code map}, unless he wrote since {@code writesBefore} or there is no room. */
    <V> void keep(Map<Long, V> map, long userId, V value, long writesBefore, Predicate<V> expired) {
        if (map.size() >= maxUsers && !map.containsKey(userId)) map.values().removeIf(expired);
        if (map.size() >= maxUsers && !map.containsKey(userId)) return;
        map.compute(userId, (u, cur) -> writesBefore(u) == writesBefore ? value : cur);
    }

    private static int bucket(long userId) {
        return (int) (Mix64.of(userId) >>> 52);
    }
}
