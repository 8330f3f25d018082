package dev.pinfeed.httpkit;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * A token bucket per authenticated caller ({@link Principal#name()}): {@code perSecond} requests a second
 * on average, bursts of {@code burst}. A caller over its rate is answered 429 with {@code Retry-After: 1}
 * (the rate is at least one a second, so a token is back within that second) and costs the others
 * nothing. Callers idle long enough to have refilled are forgotten, so the map stays as large as the
 * set of recently active callers.
 */
public final class PrincipalRateLimiter {

    private static final int FORGET_ABOVE = 10_000;

    private final double perNano;
    private final double burst;
    private final LongSupplier nanos;
    private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();

    private static final class Bucket {
        double tokens;
        long at;

        Bucket(double tokens, long at) {
            this.tokens = tokens;
            this.at = at;
        }
    }

    /** @param nanos a monotonic clock in nanoseconds ({@code System::nanoTime} in production) */
    public PrincipalRateLimiter(double perSecond, int burst, LongSupplier nanos) {
        if (!(perSecond >= 1)) throw new IllegalArgumentException("the rate must be at least 1 request a second: " + perSecond);
        if (burst < 1) throw new IllegalArgumentException("the burst must be at least 1: " + burst);
        this.perNano = perSecond / 1e9;
        this.burst = burst;
        this.nanos = nanos;
    }

    public double perSecond() {
        return perNano * 1e9;
    }

    /** Takes one request of {@code caller}'s budget; false when it is spent. */
    public boolean tryAcquire(String caller) {
        long now = nanos.getAsLong();
        if (buckets.size() > FORGET_ABOVE) forgetFull(now);
        Bucket b = buckets.computeIfAbsent(caller, c -> new Bucket(burst, now));
        synchronized (b) {
            b.tokens = Math.min(burst, b.tokens + (now - b.at) * perNano);
            b.at = now;
            if (b.tokens < 1) return false;
            b.tokens -= 1;
            return true;
        }
    }

    private void forgetFull(long now) {
        buckets.entrySet().removeIf(e -> {
            Bucket b = e.getValue();
            synchronized (b) {
                return b.tokens + (now - b.at) * perNano >= burst;
            }
        });
    }
}
