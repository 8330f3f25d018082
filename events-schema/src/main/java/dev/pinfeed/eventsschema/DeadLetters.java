package dev.pinfeed.eventsschema;

import dev.pinfeed.config.PinfeedConfig;
import java.util.List;

/**
 * The dead-letter topic and its headers: the one place that names them, next to {@link EventTopics}.
 * A poison record is copied there unchanged (key, value, original headers) plus these headers, so an
 * operator can see why it was refused and where it came from, and redrive it after a fix
 * ({@code ./pinfeed dlq redrive}: the original record back onto its source topic with the redrive headers).
 */
public final class DeadLetters {

    public static final String TOPIC = "pinfeed.dead-letter.v1";
    /** Configuration key naming the dead-letter topic every processor and {@code ./pinfeed dlq} use (default {@link #TOPIC}). */
    public static final String TOPIC_KEY = "dead-letter.topic";

    /**
     * Compacted: one record per dead letter redriven, keyed by the dead letter's topic and id, so a redrive
     * that is repeated or was interrupted never sends one dead letter twice.
     */
    public static final String REDRIVES_TOPIC = "pinfeed.dead-letter.redrives.v1";
    /** Configuration key naming the redrive log (default {@link #REDRIVES_TOPIC}). */
    public static final String REDRIVES_TOPIC_KEY = "dead-letter.redrives-topic";

    /** Every header a dead-letter writer adds starts with this; a redrive strips them from the original record. */
    public static final String HEADER_PREFIX = "pinfeed.dlq.";

    /** Why (one of the reasons below). */
    public static final String HEADER_REASON = "pinfeed.dlq.reason";
    /** The error text. */
    public static final String HEADER_ERROR = "pinfeed.dlq.error";
    public static final String HEADER_SOURCE_TOPIC = "pinfeed.dlq.source.topic";
    public static final String HEADER_SOURCE_PARTITION = "pinfeed.dlq.source.partition";
    public static final String HEADER_SOURCE_OFFSET = "pinfeed.dlq.source.offset";
    /** The consumer group (processor) that refused it. */
    public static final String HEADER_CONSUMER = "pinfeed.dlq.consumer";

    /**
     * On a redriven record: the id ({@code PARTITION:OFFSET} in the dead-letter topic) of the dead letter it
     * came from. A processor keeps a record's headers when it dead-letters it, so a record that fails again
     * after a redrive carries it into its second dead letter, which redrive then skips (no loop).
     */
    public static final String HEADER_REDRIVE_FROM = "pinfeed.dlq.redrive.from";
    /** On a redriven record: when it was redriven (ISO-8601 instant). */
    public static final String HEADER_REDRIVE_AT = "pinfeed.dlq.redrive.at";

    /** Not Confluent wire format, an unknown schema id, a payload Avro cannot read, or one over the {@link DecodeLimits}. */
    public static final String UNDECODABLE = "undecodable";
    /** A well-formed event of a type this topic should not carry. */
    public static final String UNEXPECTED_EVENT = "unexpected-event";
    /** A well-formed event that breaks a rule (self-follow, a board claimed by two owners, ...). */
    public static final String INVALID = "invalid";
    /** The event refers to an object the store does not have (a pin on an unknown board, a like of an unknown pin). */
    public static final String MISSING_REFERENCE = "missing-reference";
    /** Applying it failed with an unexpected error, again and again: a bug, kept aside so the pipeline goes on. */
    public static final String PROCESSING_ERROR = "processing-error";

    /** Every reason a pinfeed processor dead-letters with. */
    public static final List<String> REASONS = List.of(UNDECODABLE, UNEXPECTED_EVENT, INVALID, MISSING_REFERENCE, PROCESSING_ERROR);

    private DeadLetters() {}

    /** The dead-letter topic of {@code config}: {@value #TOPIC_KEY}, else {@link #TOPIC}. */
    public static String topic(PinfeedConfig config) {
        return config.get(TOPIC_KEY, TOPIC);
    }

    /** The redrive log of {@code config}: {@value #REDRIVES_TOPIC_KEY}, else {@link #REDRIVES_TOPIC}. */
    public static String redrivesTopic(PinfeedConfig config) {
        return config.get(REDRIVES_TOPIC_KEY, REDRIVES_TOPIC);
    }
}
