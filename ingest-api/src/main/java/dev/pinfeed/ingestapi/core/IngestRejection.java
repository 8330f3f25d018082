package dev.pinfeed.ingestapi.core;

import dev.pinfeed.config.StoreUnavailableException;

/**
 * Why one command was not accepted, naming the field at fault. Nothing of a rejected command is
 * published or left written.
 */
public final class IngestRejection extends RuntimeException {

    /** What went wrong, independent of the transport (the HTTP layer maps it to a status). */
    public enum Reason {
        /** A field is missing, malformed or out of range. */
        INVALID,
        /** A referenced id has the right shape but names no known object. */
        UNKNOWN_ID,
        /** The command conflicts with existing state (a username taken). */
        CONFLICT,
        /** A referenced pin was deleted: it takes no new likes, reorders, repins or comments. */
        DELETED,
        /** The caller may not publish this event type. */
        FORBIDDEN,
        /** The pipeline is saturated: retry later. */
        OVERLOADED,
        /**
         * A dependency (a MySQL host, Redis, Kafka, the schema registry: {@link #store()}) was down or
         * timed out before anything was published; safe to retry.
         */
        UNAVAILABLE,
        /**
         * Kafka did not confirm the event in time: it may or may not be in the log. Retrying a
         * create could create a second object, so clients decide (the HTTP answer is 503 too).
         */
        UNCONFIRMED
    }

    private final Reason reason;
    private final String field;
    private final String store;

    public IngestRejection(Reason reason, String field, String detail) {
        this(reason, field, detail, null);
    }

    public IngestRejection(Reason reason, String field, String detail, Throwable cause) {
        this(reason, field, detail, null, cause);
    }

    private IngestRejection(Reason reason, String field, String detail, String store, Throwable cause) {
        super(detail, cause, false, false); // rejections are expected: no stack trace to fill
        this.reason = reason;
        this.field = field;
        this.store = store;
    }

    public static IngestRejection invalid(String field, String detail) {
        return new IngestRejection(Reason.INVALID, field, detail);
    }

    /** UNAVAILABLE naming the store that was down while doing {@code what}. */
    public static IngestRejection unavailable(String what, StoreUnavailableException down) {
        return new IngestRejection(Reason.UNAVAILABLE, null, what + " failed: " + down.getMessage(), down.store(), down);
    }

    /** A rejection as it was stored (idempotent replays); {@code store} only for UNAVAILABLE. */
    static IngestRejection restored(Reason reason, String field, String detail, String store) {
        return new IngestRejection(reason, field, detail, store, null);
    }

    public Reason reason() {
        return reason;
    }

    /** The offending field ({@code boardId}, {@code pinIds[3]}), or null when no single field is at fault. */
    public String field() {
        return field;
    }

    public String detail() {
        return getMessage();
    }

    /** The store that was down (its configured name: {@code mysql001}, {@code redis}, ...) for UNAVAILABLE; else null. */
    public String store() {
        return store;
    }

    /** Nothing was published and running the command again is safe. */
    public boolean retryable() {
        return reason == Reason.OVERLOADED || reason == Reason.UNAVAILABLE;
    }
}
