package dev.pinfeed.ingestapi.kafka;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.eventsschema.AvroEventSerializer;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.SchemaRegistryClient;
import dev.pinfeed.httpkit.HealthCheck;
import dev.pinfeed.ingestapi.core.EventPublisher;
import dev.pinfeed.ingestapi.core.IngestRejection;
import dev.pinfeed.processorruntime.KafkaClients;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes to the topic and key {@link EventTopics} names, with the durable producer of
 * {@link KafkaClients#producer} (idempotent, acks=all: a broker retry never duplicates or reorders a
 * key's events; linger so many concurrent requests share a round trip; a full buffer fails fast
 * instead of blocking request threads).
 *
 * <p>A failure before the record entered the producer sent nothing: a full buffer or missing
 * metadata is OVERLOADED, the schema registry or Kafka unreachable is a
 * {@link StoreUnavailableException} naming it ({@code schema-registry}, {@value #STORE}); anything
 * else there (an event the registry refuses, a closed producer) is a bug and throws. A failure after
 * it entered is Kafka's own (no acknowledgement): the caller treats it as unconfirmed. While the log is
 * unreachable ({@link LogReachability}) a new event is refused at once as a {@link StoreUnavailableException}
 * naming {@value #STORE}, instead of waiting out the delivery timeout in the producer.
 */
public final class KafkaEventPublisher implements EventPublisher {

    /** The store name outages and the health check carry. */
    public static final String STORE = "kafka";
    /** The producer's client id (its metrics carry it). */
    public static final String CLIENT_ID = "pinfeed-ingest";

    /**
     * Ingest's compression, unless {@code kafka.producer.compression.type} (or {@code kafka.client.…}) says
     * otherwise: snappy, not lz4. Kafka's lz4 stream allocates two 64 KiB buffers for every producer batch,
     * and ingest sends many small batches (each request's events, spread over the partitions, within the
     * linger): that was half of what the request path allocated, and young GC pauses followed. Snappy's
     * stream takes its buffers from snappy-java's recycling allocator.
     */
    static final String COMPRESSION = "snappy";

    /** {@link KafkaClients#producer}'s durable settings with ingest's compression, then {@code extra}. */
    public static Properties producerSettings(PinfeedConfig config, Properties extra) {
        Properties p = KafkaClients.producer(config, CLIENT_ID);
        if (!configured(config, ProducerConfig.COMPRESSION_TYPE_CONFIG)) p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, COMPRESSION);
        p.putAll(extra);
        return p;
    }

    private static boolean configured(PinfeedConfig config, String property) {
        return config.withPrefix("kafka.producer.").containsKey(property) || config.withPrefix(KafkaClients.ALL_CLIENTS).containsKey(property);
    }

    /** How long records may wait without a connection and without progress before new ones are refused ({@link LogReachability}). */
    static final long UNREACHABLE_AFTER_MS = 1_000;

    private final KafkaProducer<String, SpecificRecord> producer;
    private final Map<String, String> topicOverrides;
    private final LogReachability reachability = new LogReachability(UNREACHABLE_AFTER_MS, System::nanoTime);
    private final Metric connectionCount;

    /** {@code topicOverrides} maps a standard topic to another (tests publish to fresh topics); {@code extra} overrides producer settings. */
    public KafkaEventPublisher(PinfeedConfig config, SchemaRegistryClient registry, Map<String, String> topicOverrides, Properties extra) {
        this.producer = new KafkaProducer<>(producerSettings(config, extra), new StringSerializer(), new AvroEventSerializer(registry));
        this.topicOverrides = Map.copyOf(topicOverrides);
        this.connectionCount = producer.metrics().entrySet().stream()
                .filter(e -> e.getKey().name().equals("connection-count") && e.getKey().group().equals("producer-metrics"))
                .map(Map.Entry::getValue).findFirst()
                .orElseThrow(() -> new IllegalStateException("the Kafka producer has no producer-metrics/connection-count metric"));
    }

    /** The producer's open connections to brokers (its own metric). */
    private int openConnections() {
        return ((Number) connectionCount.metricValue()).intValue();
    }

    private StoreUnavailableException unreachable() {
        return new StoreUnavailableException(STORE, "no connection to the Kafka cluster, and records have waited "
                + reachability.stalledMillis() + " ms without progress: the event was not sent");
    }

    @Override
    public CompletableFuture<Void> publish(SpecificRecord event) {
        String topic = EventTopics.topicFor(event);
        topic = topicOverrides.getOrDefault(topic, topic);
        CompletableFuture<Void> ack = new CompletableFuture<>();
        if (reachability.unreachable(openConnections())) {
            ack.completeExceptionally(unreachable()); // fast, and nothing sent: safe to retry
            return ack;
        }
        // A failure reported while send() is still running (buffer full, no metadata yet, serialization)
        // means the record never entered the producer: nothing can reach the log.
        AtomicBoolean enqueued = new AtomicBoolean();
        AtomicReference<RuntimeException> notSent = new AtomicReference<>();
        AtomicBoolean completed = new AtomicBoolean();
        reachability.sent();
        try {
            producer.send(new ProducerRecord<>(topic, EventTopics.partitionKey(event), event), (metadata, error) -> {
                if (completed.compareAndSet(false, true)) reachability.completed();
                if (error == null) {
                    ack.complete(null);
                } else if (!enqueued.get()) {
                    notSent.set(error instanceof RuntimeException r ? r : new KafkaException(error));
                } else {
                    ack.completeExceptionally(error);
                }
            });
        } catch (RuntimeException e) {
            if (completed.compareAndSet(false, true)) reachability.completed();
            notSent.set(e);
        }
        enqueued.set(true);
        if (notSent.get() != null) ack.completeExceptionally(classify(notSent.get(), openConnections()));
        return ack;
    }

    /**
     * What a failure before the record entered the producer means; a bug is thrown. A timeout (no
     * metadata, a full buffer) is an outage when the producer holds no connection at all, else load.
     */
    private static RuntimeException classify(RuntimeException error, int openConnections) {
        if (error instanceof TimeoutException && openConnections == 0) {
            return new StoreUnavailableException(STORE, "no connection to the Kafka cluster: " + error.getMessage(), error);
        }
        if (error instanceof TimeoutException) {
            return new IngestRejection(IngestRejection.Reason.OVERLOADED, null, "Kafka cannot take the event now (" + error.getMessage()
                    + "); retry later");
        }
        for (Throwable cause = error; cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause instanceof StoreUnavailableException down) return down; // the registry, during serialization
        }
        if (error instanceof RetriableException || error instanceof KafkaException && !(error instanceof SerializationException)) {
            return new StoreUnavailableException(STORE, "the event could not be sent: " + error.getMessage(), error);
        }
        throw error;
    }

    /**
     * Returns when the cluster answers a metadata request for the pins topic within 2 s and the log is
     * not unreachable ({@link LogReachability}: cached metadata alone answers while the broker is down);
     * else {@link StoreUnavailableException}.
     */
    public void check() {
        if (reachability.unreachable(openConnections())) throw unreachable();
        CompletableFuture<Object> f = CompletableFuture.supplyAsync(() -> producer.partitionsFor(EventTopics.PINS));
        try {
            f.get(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException(STORE, "interrupted while asking for metadata", e);
        } catch (Exception e) {
            throw new StoreUnavailableException(STORE, "no metadata for " + EventTopics.PINS + ": " + e, e);
        }
    }

    /** This store's readiness check, by name. */
    public Map<String, HealthCheck> healthChecks() {
        return Map.of(STORE, this::check);
    }

    /** Binds the producer's own metrics (kafka_producer_*) to {@code registry}; close the result to unbind. */
    public KafkaClientMetrics bindMetrics(MeterRegistry registry) {
        KafkaClientMetrics metrics = new KafkaClientMetrics(producer);
        metrics.bindTo(registry);
        return metrics;
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
    }
}
