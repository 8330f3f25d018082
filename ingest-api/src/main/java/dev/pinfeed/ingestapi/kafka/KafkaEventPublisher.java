package dev.pinfeed.ingestapi.kafka;

import dev.pinfeed.eventsschema.AvroEventSerializer;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.SchemaRegistryClient;
import dev.pinfeed.ingestapi.core.EventPublisher;
import dev.pinfeed.ingestapi.core.IngestRejection;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes to the topic and key {@link EventTopics} names, with an idempotent acks=all producer:
 * a broker retry never duplicates or reorders a key's events. The producer batches (linger) so
 * many concurrent requests share a round trip; a full buffer fails fast (OVERLOADED) instead of
 * blocking request threads.
 */
public final class KafkaEventPublisher implements EventPublisher {

    private final KafkaProducer<String, SpecificRecord> producer;
    private final Map<String, String> topicOverrides;

    /** {@code topicOverrides} maps a standard topic to another (tests publish to fresh topics). */
    public KafkaEventPublisher(String bootstrap, SchemaRegistryClient registry, Map<String, String> topicOverrides, Properties extra) {
        Properties p = producerSettings(bootstrap);
        p.putAll(extra);
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new AvroEventSerializer(registry));
        this.topicOverrides = Map.copyOf(topicOverrides);
    }

    /** The producer settings ingest publishes with (the load harness's raw baseline uses the same). */
    public static Properties producerSettings(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "2");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(128 * 1024));
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "1000");
        // Kafka gives up on a record before the service stops waiting (ingest.publish-timeout-ms, 30 s),
        // so a failed publish is normally reported by Kafka itself.
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "15000");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "25000");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "pinfeed-ingest");
        return p;
    }

    @Override
    public CompletableFuture<Void> publish(SpecificRecord event) {
        String topic = EventTopics.topicFor(event);
        topic = topicOverrides.getOrDefault(topic, topic);
        CompletableFuture<Void> ack = new CompletableFuture<>();
        // A failure reported while send() is still running (buffer full, no metadata yet) means the
        // record never entered the producer: nothing can reach the log, so the caller may retry.
        java.util.concurrent.atomic.AtomicBoolean enqueued = new java.util.concurrent.atomic.AtomicBoolean();
        try {
            producer.send(new ProducerRecord<>(topic, EventTopics.partitionKey(event), event), (metadata, error) -> {
                if (error == null) {
                    ack.complete(null);
                } else if (!enqueued.get()) {
                    ack.completeExceptionally(notSent(error));
                } else {
                    ack.completeExceptionally(error);
                }
            });
            enqueued.set(true);
        } catch (RuntimeException e) {
            ack.completeExceptionally(notSent(e));
        }
        return ack;
    }

    /**
     * A failure before the record entered the producer: nothing can reach the log, so the caller may
     * retry. A full buffer or missing metadata is load (429); anything else (the registry down for
     * serialization, a closed producer) is an outage (503).
     */
    private static IngestRejection notSent(Throwable error) {
        if (error instanceof TimeoutException) {
            return new IngestRejection(IngestRejection.Reason.OVERLOADED, null, "Kafka cannot take the event now (" + error.getMessage()
                    + "); retry later");
        }
        return new IngestRejection(IngestRejection.Reason.UNAVAILABLE, null, "the event could not be sent: " + error.getMessage(), error);
    }

    /** Throws unless the cluster answers a metadata request for {@code topic} within {@code timeout}. */
    public void checkReachable(String topic, Duration timeout) {
        CompletableFuture<Object> f = CompletableFuture.supplyAsync(() -> producer.partitionsFor(topic));
        try {
            f.get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("Kafka metadata for " + topic + " unavailable: " + e, e);
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
