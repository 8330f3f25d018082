package dev.pinfeed.eventsschema;

/**
 * The dead-letter topic and its headers: the one place that names them, next to {@link EventTopics}.
 * A poison record is copied there unchanged (key, value, original headers) plus these headers, so an
 * operator can see why it was refused and where it came from, and replay it after a fix.
 */
public final class DeadLetters {

    public static final String TOPIC = "pinfeed.dead-letter.v1";

    /** Why (one of the reasons below). */
    public static final String HEADER_REASON = "pinfeed.dlq.reason";
    /** The error text. */
    public static final String HEADER_ERROR = "pinfeed.dlq.error";
    public static final String HEADER_SOURCE_TOPIC = "pinfeed.dlq.source.topic";
    public static final String HEADER_SOURCE_PARTITION = "pinfeed.dlq.source.partition";
    public static final String HEADER_SOURCE_OFFSET = "pinfeed.dlq.source.offset";
    /** The consumer group (processor) that refused it. */
    public static final String HEADER_CONSUMER = "pinfeed.dlq.consumer";

    /** Not Confluent wire format, an unknown schema id, or a payload Avro cannot read. */
    public static final String UNDECODABLE = "undecodable";
    /** A well-formed event of a type this topic should not carry. */
    public static final String UNEXPECTED_EVENT = "unexpected-event";
    /** A well-formed event that breaks a rule (self-follow, a board claimed by two owners, ...). */
    public static final String INVALID = "invalid";
    /** The event refers to an object the store does not have (a pin on an unknown board, a like of an unknown pin). */
    public static final String MISSING_REFERENCE = "missing-reference";
    /** Applying it failed with an unexpected error, again and again: a bug, kept aside so the pipeline goes on. */
    public static final String PROCESSING_ERROR = "processing-error";

    private DeadLetters() {}
}
