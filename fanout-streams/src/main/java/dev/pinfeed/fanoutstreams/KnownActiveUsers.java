package dev.pinfeed.fanoutstreams;

/**
 * Receivers known to count as active (the fan-out's active-receiver policy) until a time, so a page's
 * last-read check asks the store only about the others: a big author's next pin finds most of its
 * receivers here. Exact for the policy, because reading one's feed only moves one's last read forward:
 * a user whose last read was {@code r} is active at least until {@code r + window}; one who never read
 * is active at least until {@code now + window} (should he read and then stop, he drops out no sooner).
 * Fixed memory, {@code 2^slotBits} hashed slots of (user, until): a collision only evicts, and the
 * evicted user is asked again. Thread-safe (the fetch threads share it).
 */
final class KnownActiveUsers {

    private final long[] users;
    private final long[] until;
    private final int shift;

    KnownActiveUsers(int slotBits) {
        if (slotBits < 1 || slotBits > 30) throw new IllegalArgumentException("slot bits must be in 1..30: " + slotBits);
        this.users = new long[1 << slotBits];
        this.until = new long[1 << slotBits];
        this.shift = 64 - slotBits;
    }

    /** Whether the user is known to be active at {@code nowMillis}. */
    synchronized boolean isActive(long user, long nowMillis) {
        int s = slot(user);
        return users[s] == user && until[s] >= nowMillis;
    }

    /** The user is active at least until {@code untilMillis}. */
    synchronized void activeUntil(long user, long untilMillis) {
        int s = slot(user);
        if (users[s] == user && until[s] >= untilMillis) return;
        users[s] = user;
        until[s] = untilMillis;
    }

    private int slot(long user) {
        return (int) ((user * 0x9E3779B97F4A7C15L) >>> shift);
    }
}
