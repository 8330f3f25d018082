package dev.pinfeed.operations.dlq;

import dev.pinfeed.eventsschema.DeadLetters;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * One record of the dead-letter topic: the refused record as it was read (key, value, its own headers) plus
 * the {@link DeadLetters} headers the processor added. Its time is the dead-letter record's timestamp: when
 * it was dead-lettered.
 */
public record DeadLetter(DeadLetterId id, Instant time, byte[] key, byte[] value, List<HeaderValue> headers) {

    /** One record header, in its order. */
    public record HeaderValue(String name, byte[] value) {
        public String text() {
            return value == null ? null : new String(value, StandardCharsets.UTF_8);
        }
    }

    public DeadLetter {
        headers = List.copyOf(headers);
    }

    public static DeadLetter of(ConsumerRecord<byte[], byte[]> record) {
        List<HeaderValue> headers = new ArrayList<>();
        for (Header h : record.headers()) headers.add(new HeaderValue(h.key(), h.value()));
        return new DeadLetter(new DeadLetterId(record.partition(), record.offset()), Instant.ofEpochMilli(record.timestamp()), record.key(),
                record.value(), headers);
    }

    /** The last header called {@code name}, as text, or null. */
    public String header(String name) {
        for (int i = headers.size() - 1; i >= 0; i--) {
            if (headers.get(i).name().equals(name)) return headers.get(i).text();
        }
        return null;
    }

    public String reason() {
        return orUnknown(header(DeadLetters.HEADER_REASON));
    }

    public String error() {
        return header(DeadLetters.HEADER_ERROR);
    }

    /** The processor that refused it: its consumer group (or Kafka Streams application id). */
    public String processor() {
        return orUnknown(header(DeadLetters.HEADER_CONSUMER));
    }

    /** The topic it was read from, where a redrive sends it back; null when a foreign writer left it out. */
    public String sourceTopic() {
        return header(DeadLetters.HEADER_SOURCE_TOPIC);
    }

    /** {@code topic-partition@offset} it was read at. */
    public String source() {
        return orUnknown(sourceTopic()) + "-" + orUnknown(header(DeadLetters.HEADER_SOURCE_PARTITION)) + "@"
                + orUnknown(header(DeadLetters.HEADER_SOURCE_OFFSET));
    }

    /** Whether the headers say which record it was read from (topic, partition and offset). */
    public boolean sourceKnown() {
        return sourceTopic() != null && header(DeadLetters.HEADER_SOURCE_PARTITION) != null && header(DeadLetters.HEADER_SOURCE_OFFSET) != null;
    }

    /** When this record was itself a redrive: the id of the dead letter it was redriven from. */
    public Optional<String> redrivenFrom() {
        return Optional.ofNullable(header(DeadLetters.HEADER_REDRIVE_FROM));
    }

    /** A redriven record refused again: redrive skips it (no loop); the cause needs a look first. */
    public boolean failedAgainAfterRedrive() {
        return redrivenFrom().isPresent();
    }

    /** The refused record's own headers: without those a dead-letter writer added ({@link DeadLetters#HEADER_PREFIX}). */
    public List<HeaderValue> originalHeaders() {
        return headers.stream().filter(h -> !h.name().startsWith(DeadLetters.HEADER_PREFIX)).toList();
    }

    private static String orUnknown(String s) {
        return s == null ? "(unknown)" : s;
    }
}
