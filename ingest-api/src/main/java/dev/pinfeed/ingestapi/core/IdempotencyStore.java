package dev.pinfeed.ingestapi.core;

import java.time.Duration;

/**
 * Remembers the result of each request carrying an Idempotency-Key, so a retry with the same key
 * and request gets the same result and publishes nothing again. The stored result is an opaque
 * string to the store ({@link IngestResult#serialize()}); {@link IdempotentIngest} decides what is stored.
 * A store that is down throws {@code StoreUnavailableException} naming itself.
 */
public interface IdempotencyStore extends AutoCloseable {

    /** What {@link #begin} found. */
    sealed interface Begin {
        /** The caller owns the key now and must {@link #complete} or {@link #abandon} it. */
        record Started() implements Begin {}
        /** Another request with this key is still being processed. */
        record InProgress() implements Begin {}
        /** The key was used with a different request body. */
        record Mismatch() implements Begin {}
        /** The key's request was answered before: {@code result} is what {@link #complete} stored. */
        record Replay(String result) implements Begin {}
    }

    /**
     * Claims {@code key} (within {@code scope}, the caller's identity) for a request whose body
     * hashes to {@code fingerprint}; the claim lapses after {@code lease} if never completed.
     */
    Begin begin(String scope, String key, String fingerprint, Duration lease);

    /** Stores the result for {@code retention}, also when the claim lapsed meanwhile (unless another body took the key). */
    void complete(String scope, String key, String fingerprint, String result, Duration retention);

    /**
     * Drops a still-pending claim of this body so a retry runs again (the request published nothing);
     * a stored result or another body's claim is left alone.
     */
    void abandon(String scope, String key, String fingerprint);

    @Override
    default void close() {}
}
