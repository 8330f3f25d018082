package dev.pinfeed.operations.dlq;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.processorruntime.KafkaClients;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Sends dead letters' original records back to their source topics. A transactional producer (idempotent,
 * acks=all) puts each batch's records and their redrive-log entries in one transaction: after a crash or
 * Ctrl-C a batch is either sent and logged or neither, and the processors (read_committed) never see a
 * record whose redrive is not logged. The transactional id is per dead-letter topic, so a second redrive of
 * the same topic fences the first, and reading the log after {@link #open} sees everything the first sent.
 */
public final class Redriver implements AutoCloseable {

    private final KafkaProducer<byte[], byte[]> producer;
    private final String deadLetterTopic;
    private final String logTopic;

    private Redriver(KafkaProducer<byte[], byte[]> producer, String deadLetterTopic, String logTopic) {
        this.producer = producer;
        this.deadLetterTopic = deadLetterTopic;
        this.logTopic = logTopic;
    }

    /** Opens the producer and takes over from any earlier redrive of {@code deadLetterTopic} (its open transaction is aborted). */
    public static Redriver open(PinfeedConfig config, String deadLetterTopic, String logTopic) {
        Properties p = KafkaClients.producer(config, "pinfeed-dlq-redrive");
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId(deadLetterTopic));
        // An operator's command, not a request thread: waiting for the coordinator and metadata is fine.
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "30000");
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        try {
            producer.initTransactions();
        } catch (RuntimeException e) {
            producer.close();
            throw e;
        }
        return new Redriver(producer, deadLetterTopic, logTopic);
    }

    static String transactionalId(String deadLetterTopic) {
        return "pinfeed-dlq-redrive-" + deadLetterTopic;
    }

    /**
     * The record a dead letter goes back as: its key, value and own headers, to its source topic (partitioned by
     * key, like the producers'), plus {@link DeadLetters#HEADER_REDRIVE_FROM} and {@link DeadLetters#HEADER_REDRIVE_AT}.
     */
    static ProducerRecord<byte[], byte[]> redriven(DeadLetter d, Instant at) {
        RecordHeaders headers = new RecordHeaders();
        for (DeadLetter.HeaderValue h : d.originalHeaders()) headers.add(h.name(), h.value());
        headers.add(DeadLetters.HEADER_REDRIVE_FROM, d.id().toString().getBytes(StandardCharsets.UTF_8));
        headers.add(DeadLetters.HEADER_REDRIVE_AT, at.toString().getBytes(StandardCharsets.UTF_8));
        return new ProducerRecord<>(d.sourceTopic(), null, d.key(), d.value(), headers);
    }

    /**
     * Sends {@code batch} and logs it, in one transaction; returns the log entries once committed. Each element is the
     * dead letters of one record ({@link RedrivePlan#bySourceRecord}): the record goes back once, each is logged.
     */
    public List<RedriveLog.Entry> send(List<List<DeadLetter>> batch, Instant at) {
        try {
            producer.beginTransaction();
            List<Future<RecordMetadata>> sent = new ArrayList<>(batch.size());
            for (List<DeadLetter> record : batch) sent.add(producer.send(redriven(record.get(0), at)));
            producer.flush();
            List<RedriveLog.Entry> entries = new ArrayList<>();
            for (int i = 0; i < batch.size(); i++) {
                RecordMetadata m = sent.get(i).get();
                for (DeadLetter d : batch.get(i)) {
                    RedriveLog.Entry entry = new RedriveLog.Entry(d.id(), m.topic() + "-" + m.partition() + "@" + m.offset(), at);
                    producer.send(new ProducerRecord<>(logTopic, RedriveLog.key(deadLetterTopic, entry.deadLetter()), RedriveLog.value(entry)));
                    entries.add(entry);
                }
            }
            producer.commitTransaction();
            return entries;
        } catch (ProducerFencedException e) {
            throw new IllegalStateException("another redrive of " + deadLetterTopic + " started and took over; this one stopped"
                    + " (its last batch was not sent)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            abort();
            throw new IllegalStateException("interrupted; the last batch was not sent");
        } catch (ExecutionException | KafkaException e) {
            abort();
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            throw new IllegalStateException("Kafka refused the redrive (" + cause + "); the last batch was not sent, run the command again");
        }
    }

    private void abort() {
        try {
            producer.abortTransaction();
        } catch (KafkaException ignored) {
            // the transaction times out on the broker, and the next redrive's initTransactions aborts it
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
