package dev.pinfeed.ingestapi.core;

import java.time.Duration;

/**
 * Remembers the answer to each request carrying an Idempotency-Key, so a retry with the same key
 * and body gets the same answer and publishes nothing again.
 */
public interface IdempotencyStore extends AutoCloseable {

    /** A stored answer: HTTP status and JSON body. */
    record StoredAnswer(int status, String body) {}

    /** What {@link #begin} found. */
    sealed interface Begin {
        /** The caller owns the key now and must {@link #complete} or {@link #abandon} it. */
        record Started() implements Begin {}
        /** Another request with this key is still being processed. */
        record InProgress() implements Begin {}
        /** The key was used with a different request body. */
        record Mismatch() implements Begin {}
        /** The key's request was answered before: answer the same. */
        record Replay(StoredAnswer answer) implements Begin {}
    }

    /**
     * Claims {@code key} (within {@code scope}, the caller's identity) for a request whose body
     * hashes to {@code fingerprint}; the claim lapses after {@code lease} if never completed.
     */
    Begin begin(String scope, String key, String fingerprint, Duration lease);

    /** Stores the answer for {@code retention}, also when the claim lapsed meanwhile (unless another body took the key). */
    void complete(String scope, String key, String fingerprint, StoredAnswer answer, Duration retention);

    /**
     * Drops a still-pending claim of this body so a retry runs again (the request published nothing);
     * a stored answer or another body's claim is left alone.
     */
    void abandon(String scope, String key, String fingerprint);

    @Override
    default void close() {}
}
