package dev.pinfeed.processorruntime;

import dev.pinfeed.eventsschema.DeadLetters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies a refused record to the dead-letter topic ({@link DeadLetters#topic}) with the reason and its origin
 * in headers, keeping its own headers (a redriven record's {@link DeadLetters#HEADER_REDRIVE_FROM} among them).
 * Sent synchronously and retried until Kafka takes it: the consumer commits past the record only
 * after this returns, so a dead letter is never lost.
 */
public final class DeadLetterWriter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterWriter.class);

    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final String consumer;
    private final MeterRegistry meters;
    private final String processor;

    /**
     * @param consumer  the consumer group whose records these are ({@link DeadLetters#HEADER_CONSUMER})
     * @param processor the {@code processor} tag of {@code pinfeed_dead_letters_total}
     */
    public DeadLetterWriter(Producer<byte[], byte[]> producer, String topic, String consumer, String processor, MeterRegistry meters) {
        this.producer = producer;
        this.topic = topic;
        this.consumer = consumer;
        this.processor = processor;
        this.meters = meters;
    }

    /**
     * Writes one dead letter; retries a Kafka failure every second until it succeeds or {@code giveUp}
     * says the process is stopping (then throws, and the record stays uncommitted).
     */
    public void write(ConsumerRecord<byte[], byte[]> record, String reason, String error, BooleanSupplier giveUp) {
        RecordHeaders headers = headers(record.headers(), reason, error, record.topic(), record.partition(), record.offset(), consumer);
        while (true) {
            try {
                producer.send(new ProducerRecord<>(topic, null, record.key(), record.value(), headers)).get();
                break;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while dead-lettering", e);
            } catch (ExecutionException | RuntimeException e) {
                Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
                if (giveUp.getAsBoolean()) throw new IllegalStateException("cannot dead-letter while stopping: " + cause, cause);
                LOG.warn("cannot dead-letter {}-{}@{} yet ({}); retrying", record.topic(), record.partition(), record.offset(), cause.toString());
                Sleeper.SYSTEM.sleepQuietly(1_000);
            }
        }
        counter(reason).increment();
        LOG.warn("dead-lettered {}-{}@{} ({}): {}", record.topic(), record.partition(), record.offset(), reason, error);
    }

    private Counter counter(String reason) {
        return counter(meters, processor, reason);
    }

    /**
     * The headers of a dead letter: the refused record's own headers, then the reason, the error text
     * and where it came from ({@link DeadLetters}). Every pinfeed writer of dead letters uses these
     * (this class, and the fan-out's Kafka Streams exception handlers).
     */
    public static RecordHeaders headers(Iterable<Header> original, String reason, String error, String topic, int partition,
                                        long offset, String consumer) {
        RecordHeaders headers = new RecordHeaders();
        if (original != null) for (Header h : original) headers.add(h);
        headers.add(DeadLetters.HEADER_REASON, bytes(reason));
        headers.add(DeadLetters.HEADER_ERROR, bytes(String.valueOf(error)));
        headers.add(DeadLetters.HEADER_SOURCE_TOPIC, bytes(String.valueOf(topic)));
        headers.add(DeadLetters.HEADER_SOURCE_PARTITION, bytes(Integer.toString(partition)));
        headers.add(DeadLetters.HEADER_SOURCE_OFFSET, bytes(Long.toString(offset)));
        headers.add(DeadLetters.HEADER_CONSUMER, bytes(consumer));
        return headers;
    }

    /** {@code pinfeed_dead_letters_total{processor, reason}}: records sent to the dead-letter topic. */
    public static Counter counter(MeterRegistry meters, String processor, String reason) {
        return Counter.builder("pinfeed.dead.letters").description("Records sent to the dead-letter topic, by reason.")
                .tag("processor", processor).tag("reason", reason).register(meters);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        producer.close();
    }
}
