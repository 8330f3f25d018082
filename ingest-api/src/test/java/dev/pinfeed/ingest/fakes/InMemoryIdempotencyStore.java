package dev.pinfeed.ingest.fakes;

import dev.pinfeed.ingest.core.IdempotencyStore;
import java.time.Duration;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;

/** Idempotency records in a map, expiring by an injected clock. */
public final class InMemoryIdempotencyStore implements IdempotencyStore {

    private record Record(String fingerprint, StoredAnswer answer, long expiresAtMillis) {}

    private final Map<String, Record> records = new HashMap<>();
    private final InstantSource clock;

    public InMemoryIdempotencyStore(InstantSource clock) {
        this.clock = clock;
    }

    @Override
    public synchronized Begin begin(String scope, String key, String fingerprint, Duration lease) {
        String k = scope + ":" + key;
        long now = clock.millis();
        Record r = records.get(k);
        if (r == null || r.expiresAtMillis() <= now) {
            records.put(k, new Record(fingerprint, null, now + lease.toMillis()));
            return new Begin.Started();
        }
        if (!r.fingerprint().equals(fingerprint)) return new Begin.Mismatch();
        if (r.answer() == null) return new Begin.InProgress();
        return new Begin.Replay(r.answer());
    }

    @Override
    public synchronized void complete(String scope, String key, String fingerprint, StoredAnswer answer, Duration retention) {
        String k = scope + ":" + key;
        Record r = records.get(k);
        if (r != null && r.fingerprint().equals(fingerprint)) {
            records.put(k, new Record(fingerprint, answer, clock.millis() + retention.toMillis()));
        }
    }

    @Override
    public synchronized void abandon(String scope, String key) {
        records.remove(scope + ":" + key);
    }
}
