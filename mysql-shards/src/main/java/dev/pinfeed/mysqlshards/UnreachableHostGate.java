package dev.pinfeed.mysqlshards;

import java.util.function.LongSupplier;

/**
 * Fails calls to a MySQL host fast while it is known to be unreachable. Without it every caller waited
 * the pool's whole connection timeout (5 s, and a request borrowing twice 10 s) for a host that was
 * down, before answering 503. After a borrow failed because no connection could be made, the gate is
 * shut for {@link #RETRY_NANOS}: callers are refused at once. Then one caller at a time is let through
 * to try (the others are still refused) until one gets a connection, which opens the gate for all.
 * Client-free and clock-injected; thread-safe.
 */
final class UnreachableHostGate {

    /** How long after a failed attempt the next one is let through. */
    static final long RETRY_NANOS = 1_000_000_000L;

    private final LongSupplier nanoTime;
    private boolean shut;
    private long retryAt;
    private boolean trying;
    private String lastFailure = "";

    UnreachableHostGate(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /**
     * Null when the caller may borrow (the gate is open, or the caller is the one let through to try):
     * it must then report {@link #reached}, {@link #unreachable} or {@link #done}. Otherwise why it is refused.
     */
    synchronized String enter() {
        if (!shut) return null;
        long now = nanoTime.getAsLong();
        if (trying || now - retryAt < 0) {
            return "unreachable: the last connection attempt failed (" + lastFailure + "); next attempt in "
                    + Math.max(0, (retryAt - now) / 1_000_000) + " ms" + (trying ? " (one is under way)" : "");
        }
        trying = true;
        return null;
    }

    /** A connection was had: everyone may borrow again. */
    synchronized void reached() {
        shut = false;
        trying = false;
    }

    /** No connection could be made: refuse callers until the next attempt is due. */
    synchronized void unreachable(String why) {
        shut = true;
        trying = false;
        retryAt = nanoTime.getAsLong() + RETRY_NANOS;
        lastFailure = why;
    }

    /** The borrow failed for another reason (e.g. every connection busy): nothing learned about the host. */
    synchronized void done() {
        trying = false;
    }
}
