package dev.pinfeed.ingestapi.fakes;

import dev.pinfeed.ingestapi.core.IdempotencyStore;
import java.time.Duration;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;

/** Idempotency records in a map, expiring by an injected clock; {@link #failWith} makes every call fail (an outage). */
public final class InMemoryIdempotencyStore implements IdempotencyStore {

    private record Record(String fingerprint, String result, long expiresAtMillis) {}

    private record Key(String scope, String key) {}

    private final Map<Key, Record> records = new HashMap<>();
    private final InstantSource clock;

    public volatile RuntimeException failWith;

    public InMemoryIdempotencyStore(InstantSource clock) {
        this.clock = clock;
    }

    @Override
    public synchronized Begin begin(String scope, String key, String fingerprint, Duration lease) {
        if (failWith != null) throw failWith;
        Key k = new Key(scope, key);
        long now = clock.millis();
        Record r = records.get(k);
        if (r == null || r.expiresAtMillis() <= now) {
            records.put(k, new Record(fingerprint, null, now + lease.toMillis()));
            return new Begin.Started();
        }
        if (!r.fingerprint().equals(fingerprint)) return new Begin.Mismatch();
        if (r.result() == null) return new Begin.InProgress();
        return new Begin.Replay(r.result());
    }

    @Override
    public synchronized void complete(String scope, String key, String fingerprint, String result, Duration retention) {
        Key k = new Key(scope, key);
        Record r = records.get(k);
        boolean lapsed = r == null || r.expiresAtMillis() <= clock.millis();
        if (lapsed || r.fingerprint().equals(fingerprint)) {
            records.put(k, new Record(fingerprint, result, clock.millis() + retention.toMillis()));
        }
    }

    @Override
    public synchronized void abandon(String scope, String key, String fingerprint) {
        Key k = new Key(scope, key);
        Record r = records.get(k);
        if (r != null && r.result() == null && r.fingerprint().equals(fingerprint)) records.remove(k);
    }
}
