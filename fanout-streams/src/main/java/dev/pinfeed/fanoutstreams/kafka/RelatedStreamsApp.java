package dev.pinfeed.fanoutstreams.kafka;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.SchemaRegistryClient;
import dev.pinfeed.fanoutstreams.FanoutStatus;
import dev.pinfeed.fanoutstreams.related.RelatedSettings;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running related-pins application ({@link RelatedTopology}): its Kafka Streams client, its metrics bound to the
 * process's registry, and the probes the admin endpoint asks. Thread deaths are handled as the fan-out's
 * ({@link StreamThreadFailures}): an outage replaces the thread, anything else stops the client, which liveness reports.
 */
public final class RelatedStreamsApp implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RelatedStreamsApp.class);

    private final KafkaStreams streams;
    private final KafkaStreamsMetrics streamsMetrics;
    private final RelatedMetrics metrics;
    private final FanoutStatus status;
    private volatile boolean closing;

    private RelatedStreamsApp(KafkaStreams streams, KafkaStreamsMetrics streamsMetrics, RelatedMetrics metrics, FanoutStatus status) {
        this.streams = streams;
        this.streamsMetrics = streamsMetrics;
        this.metrics = metrics;
        this.status = status;
    }

    /**
     * Registers the FanoutChunk schema for the output topic (a registry outage shows at start) and starts the client.
     *
     * @param instance this replica's name (static membership): distinct per replica, stable across its restarts
     */
    public static RelatedStreamsApp start(RelatedSettings settings, PinfeedConfig config, String instance, SchemaRegistryClient registry,
                                          MeterRegistry meters, Clock clock) {
        registry.register(EventTopics.subjectFor(settings.outputTopic(), FanoutChunk.getClassSchema()), FanoutChunk.getClassSchema());
        RelatedMetrics metrics = new RelatedMetrics(meters);
        FanoutStatus status = new FanoutStatus(clock, Duration.ofSeconds(10));
        KafkaStreams streams = new KafkaStreams(RelatedTopology.build(settings, registry, metrics),
                RelatedTopology.properties(settings, config, instance, metrics, status));
        streams.setUncaughtExceptionHandler(e -> {
            Throwable outage = StreamThreadFailures.outage(e);
            if (outage == null) {
                LOG.error("related-pins stream thread died; stopping its Kafka Streams client", e);
            } else {
                LOG.warn("related-pins stream thread stopped by an outage ({}); replacing it in 1 s", outage.toString());
                try {
                    Thread.sleep(1_000); // on the dying thread: an outage that persists must not spin thread replacements
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                }
            }
            return StreamThreadFailures.responseTo(e);
        });
        KafkaStreamsMetrics streamsMetrics = new KafkaStreamsMetrics(streams);
        streamsMetrics.bindTo(meters);
        streams.start();
        return new RelatedStreamsApp(streams, streamsMetrics, metrics, status);
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    public RelatedMetrics metrics() {
        return metrics;
    }

    /** Liveness: the client is not in ERROR (or on its way there) and no stream thread is dead. */
    public void checkLive() {
        KafkaStreams.State s = streams.state();
        if (!closing && (s == KafkaStreams.State.ERROR || s == KafkaStreams.State.PENDING_ERROR || s == KafkaStreams.State.NOT_RUNNING)) {
            throw new IllegalStateException("related-pins Kafka Streams is " + s);
        }
        List<String> dead = streams.metadataForLocalThreads().stream().filter(t -> "DEAD".equals(t.threadState()))
                .map(ThreadMetadata::threadName).toList();
        if (!dead.isEmpty()) throw new IllegalStateException("dead related-pins stream threads: " + dead);
    }

    /** Readiness: RUNNING (not rebalancing or restoring its stores) and no registry outage seen lately while decoding. */
    public void checkReady() {
        KafkaStreams.State s = streams.state();
        if (s != KafkaStreams.State.RUNNING) throw new IllegalStateException("related-pins Kafka Streams is " + s);
        List<FanoutStatus.Outage> down = status.current();
        if (!down.isEmpty()) {
            throw new IllegalStateException(down.stream().map(o -> o.store() + " unavailable").collect(Collectors.joining(", ")) + ": "
                    + down.get(0).message());
        }
    }

    /** Stops the client within 30 s, committing what was processed. */
    @Override
    public synchronized void close() {
        if (closing) return;
        closing = true;
        streams.close(Duration.ofSeconds(30));
        streamsMetrics.close();
    }
}
