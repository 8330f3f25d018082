package dev.pinfeed.ingestapi.core;

import dev.pinfeed.ingestapi.core.IdempotencyStore.Begin;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Runs a unit of ingest work at most once per (scope, Idempotency-Key): the first request claims the
 * key for {@code lease} with the request's fingerprint and runs; a retry with the same fingerprint
 * gets the stored result, one while the first still runs is told so, one with another request is a
 * mismatch. Transport-free: the caller maps the {@link Decision} to its own answers.
 *
 * <p>What is stored is decided here, once: a result is kept for {@code retention} unless running the
 * request again is safe ({@link IngestResult#retryable()}: nothing published, only OVERLOADED or
 * UNAVAILABLE failures), so a retry after an outage or overload runs again, while an accepted or
 * unconfirmed publish, and a final refusal, are answered the same for the whole retention. Work that
 * throws (a malformed request, a bug) publishes nothing of its own answer: the claim is dropped and
 * the exception passes on.
 */
public final class IdempotentIngest {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(IdempotentIngest.class);

    /** How long a first request owns its key: well over the worst request (publish timeout 30 s + MySQL). */
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(120);
    /** How long a stored result answers retries. */
    public static final Duration DEFAULT_RETENTION = Duration.ofHours(24);

    /** What became of one keyed request. */
    public sealed interface Decision {
        /** The key was free: the work ran now and produced {@code result}. */
        record Started(IngestResult result) implements Decision {}
        /** The key's request ran before: {@code result} is its stored result. */
        record Replayed(IngestResult result) implements Decision {}
        /** Another request with this key is still running. */
        record InProgress() implements Decision {}
        /** The key was used with a different request. */
        record Mismatch() implements Decision {}
    }

    private final IdempotencyStore store;
    private final Duration lease;
    private final Duration retention;

    public IdempotentIngest(IdempotencyStore store, Duration lease, Duration retention) {
        this.store = store;
        this.lease = lease;
        this.retention = retention;
    }

    public IdempotentIngest(IdempotencyStore store) {
        this(store, DEFAULT_LEASE, DEFAULT_RETENTION);
    }

    /**
     * Runs {@code work} unless the key was used before. A store that is down when the key is claimed
     * throws its {@code StoreUnavailableException} (nothing ran: safe to retry); one that fails later
     * only costs the stored result (logged), never the caller's answer.
     *
     * @param scope       whose key it is (the caller's identity): keys of different callers never meet
     * @param fingerprint a digest of the request: the same key with another request is a {@link Decision.Mismatch}
     */
    public Decision run(String scope, String key, String fingerprint, Supplier<IngestResult> work) {
        Begin begin = store.begin(scope, key, fingerprint, lease);
        if (begin instanceof Begin.Replay replay) return new Decision.Replayed(IngestResult.deserialize(replay.result()));
        if (begin instanceof Begin.InProgress) return new Decision.InProgress();
        if (begin instanceof Begin.Mismatch) return new Decision.Mismatch();
        IngestResult result;
        try {
            result = work.get();
        } catch (RuntimeException | Error e) {
            abandonQuietly(scope, key, fingerprint);
            throw e;
        }
        if (result.retryable()) {
            abandonQuietly(scope, key, fingerprint);
        } else {
            try {
                store.complete(scope, key, fingerprint, result.serialize(), retention);
            } catch (RuntimeException e) {
                // The work is done; the caller gets its answer even if it could not be remembered.
                LOG.warn("could not store the result for an Idempotency-Key of '{}': {}", scope, e.getMessage());
            }
        }
        return new Decision.Started(result);
    }

    private void abandonQuietly(String scope, String key, String fingerprint) {
        try {
            store.abandon(scope, key, fingerprint);
        } catch (RuntimeException e) {
            LOG.warn("could not release an Idempotency-Key of '{}' (it lapses after its lease): {}", scope, e.getMessage());
        }
    }
}
