package dev.pinfeed.operations.dlq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.operations.kafka.TopicRanges;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The redrive log ({@link DeadLetters#REDRIVES_TOPIC}, compacted): one record per dead letter redriven,
 * written in the same Kafka transaction as the redriven record itself, so "sent" and "logged" never differ.
 * The one owner of its layout: key {@code <dead-letter topic>/<PARTITION:OFFSET>} (the topic, so several
 * dead-letter topics can share one log), value a JSON object {@code {"deadLetter", "redrivenTo", "at"}}.
 */
public final class RedriveLog {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One redrive: the dead letter, where its record went ({@code topic-partition@offset}) and when. */
    public record Entry(DeadLetterId deadLetter, String redrivenTo, Instant at) {}

    private RedriveLog() {}

    public static byte[] key(String deadLetterTopic, DeadLetterId id) {
        return (deadLetterTopic + "/" + id).getBytes(StandardCharsets.UTF_8);
    }

    /** The id a log key names when it is one of {@code deadLetterTopic}'s dead letters. */
    static Optional<DeadLetterId> idOf(String deadLetterTopic, byte[] key) {
        if (key == null) return Optional.empty();
        String text = new String(key, StandardCharsets.UTF_8);
        String prefix = deadLetterTopic + "/";
        if (!text.startsWith(prefix)) return Optional.empty();
        try {
            return Optional.of(DeadLetterId.parse(text.substring(prefix.length())));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    public static byte[] value(Entry entry) {
        ObjectNode o = JSON.createObjectNode();
        o.put("deadLetter", entry.deadLetter().toString());
        o.put("redrivenTo", entry.redrivenTo());
        o.put("at", entry.at().toString());
        return o.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Applies one log record to {@code entries} (the replay of the log for {@code deadLetterTopic}): a later record
     * of a key replaces the earlier one, a tombstone removes it, other topics' keys are ignored. An unreadable value
     * still counts as redriven: skipping a dead letter is recoverable, sending it twice is not.
     */
    static void apply(Map<DeadLetterId, Entry> entries, String deadLetterTopic, byte[] key, byte[] value) {
        Optional<DeadLetterId> id = idOf(deadLetterTopic, key);
        if (id.isEmpty()) return;
        if (value == null) {
            entries.remove(id.get());
            return;
        }
        String to = "(unknown)";
        Instant at = Instant.EPOCH;
        try {
            JsonNode o = JSON.readTree(value);
            to = o.path("redrivenTo").asText(to);
            at = Instant.parse(o.path("at").asText());
        } catch (IOException | DateTimeParseException e) {
            // kept with what could be read
        }
        entries.put(id.get(), new Entry(id.get(), to, at));
    }

    /** Every redrive of {@code deadLetterTopic}'s dead letters the log holds, by dead letter. */
    public static Map<DeadLetterId, Entry> read(TopicRanges ranges, String logTopic, String deadLetterTopic) {
        Map<DeadLetterId, Entry> entries = new HashMap<>();
        ranges.readAll(List.of(logTopic), r -> apply(entries, deadLetterTopic, r.key(), r.value()));
        return entries;
    }
}
