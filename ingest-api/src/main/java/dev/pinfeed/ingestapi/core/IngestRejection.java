package dev.pinfeed.ingestapi.core;

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
        /** The caller may not publish this event type. */
        FORBIDDEN,
        /** The pipeline is saturated: retry later. */
        OVERLOADED,
        /** A dependency (MySQL, Redis, Kafka) failed before anything was published; safe to retry. */
        UNAVAILABLE,
        /**
         * Kafka did not confirm the event in time: it may or may not be in the log. Retrying a
         * create could create a second object, so clients decide (the HTTP answer is 503 too).
         */
        UNCONFIRMED
    }

    private final Reason reason;
    private final String field;

    public IngestRejection(Reason reason, String field, String detail) {
        super(detail, null, false, false); // rejections are expected: no stack trace to fill
        this.reason = reason;
        this.field = field;
    }

    public IngestRejection(Reason reason, String field, String detail, Throwable cause) {
        super(detail, cause, false, false);
        this.reason = reason;
        this.field = field;
    }

    public static IngestRejection invalid(String field, String detail) {
        return new IngestRejection(Reason.INVALID, field, detail);
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
}
