package dev.pinfeed.feedservice;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * User ids this process has seen exist, so a hot route (a reader paging their feed) skips the
 * existence read. Sound because no event deletes a user (events-schema has UserCreated and no
 * delete): once a user exists, it exists for good. Exact and bounded: one slot per hash of the id,
 * the newest id takes the slot, so a collision only costs the evicted id one more existence read,
 * never a false "exists".
 */
final class ExistingUserIds {

    /** 2^18 slots, 2 MiB: the readers of one process's recent minutes; more only means more cache reads. */
    static final int DEFAULT_SLOTS = 1 << 18;

    private final AtomicLongArray slots;
    private final int mask;

    ExistingUserIds(int slots) {
        if (slots < 1 || Integer.bitCount(slots) != 1) throw new IllegalArgumentException("slots must be a power of two: " + slots);
        this.slots = new AtomicLongArray(slots);
        this.mask = slots - 1;
    }

    /** True only if {@code userId} was {@link #add added} and no other id took its slot since. */
    boolean contains(long userId) {
        return userId != 0 && slots.getPlain(slot(userId)) == userId;
    }

    void add(long userId) {
        if (userId != 0) slots.setRelease(slot(userId), userId); // 0 marks an empty slot
    }

    private int slot(long id) {
        long h = id * 0x9E3779B97F4A7C15L; // Fibonacci hashing: ids differing in any bits spread over the slots
        return (int) (h >>> 40) & mask;
    }
}
