package dev.pinfeed.fanoutstreams.kafka;

import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.SchemaRegistryClient;
import dev.pinfeed.fanoutstreams.FanoutSettings;
import dev.pinfeed.fanoutstreams.FanoutStatus;
import dev.pinfeed.feedstore.MaterializedFeedStore;
import dev.pinfeed.followergraph.GraphStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running fan-out: the Kafka Streams client over {@link FanoutTopology}, its metrics bound to the
 * meter registry ({@link KafkaStreamsMetrics}: consumer lag, commit rates ...), and the probes the
 * admin endpoint asks. A stream thread that dies of a store outage is replaced (it re-reads from the
 * last commit); any other death stops the client, which liveness reports.
 */
public final class FanoutStreamsApp implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FanoutStreamsApp.class);

    private final KafkaStreams streams;
    private final ExecutorService fetchThreads;
    private final KafkaStreamsMetrics streamsMetrics;
    private final FanoutMetrics metrics;
    private final FanoutStatus status;
    private volatile boolean closing;

    private FanoutStreamsApp(KafkaStreams streams, ExecutorService fetchThreads, KafkaStreamsMetrics streamsMetrics, FanoutMetrics metrics,
                             FanoutStatus status) {
        this.streams = streams;
        this.fetchThreads = fetchThreads;
        this.streamsMetrics = streamsMetrics;
        this.metrics = metrics;
        this.status = status;
    }

    /**
     * Registers the FanoutChunk schema (so a registry outage shows at start, not mid-fan-out) and starts the client.
     *
     * @param instance this replica's name (static membership): distinct per replica, stable across its restarts
     */
    public static FanoutStreamsApp start(FanoutSettings settings, String bootstrap, String instance, SchemaRegistryClient registry,
                                         GraphStore graph, MaterializedFeedStore feeds, MeterRegistry meters, Clock clock) {
        registry.register(EventTopics.subjectFor(settings.outputTopic(), FanoutChunk.getClassSchema()), FanoutChunk.getClassSchema());
        registry.register(EventTopics.subjectFor(EventTopics.bulkLaneOf(settings.outputTopic()), FanoutChunk.getClassSchema()),
                FanoutChunk.getClassSchema());
        FanoutMetrics metrics = new FanoutMetrics(meters);
        FanoutStatus status = new FanoutStatus(clock, Duration.ofSeconds(10).plus(settings.interval()));
        AtomicInteger n = new AtomicInteger();
        ExecutorService fetchThreads = Executors.newFixedThreadPool(settings.fetchThreads(), r -> {
            Thread t = new Thread(r, "fanout-fetch-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        KafkaStreams streams = new KafkaStreams(FanoutTopology.build(settings, registry, graph, feeds, fetchThreads, metrics, status, clock),
                FanoutTopology.properties(settings, bootstrap, instance, metrics, status));
        streams.setUncaughtExceptionHandler(e -> {
            Throwable outage = StreamThreadFailures.outage(e);
            if (outage == null) {
                LOG.error("fan-out stream thread died; stopping the Kafka Streams client", e);
                return StreamThreadFailures.responseTo(e);
            }
            LOG.warn("fan-out stream thread stopped by an outage ({}); replacing it in 1 s", outage.toString());
            sleepQuietly(1_000); // on the dying thread: an outage that persists must not spin thread replacements
            return StreamThreadFailures.responseTo(e);
        });
        KafkaStreamsMetrics streamsMetrics = new KafkaStreamsMetrics(streams);
        streamsMetrics.bindTo(meters);
        streams.start();
        return new FanoutStreamsApp(streams, fetchThreads, streamsMetrics, metrics, status);
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    public FanoutMetrics metrics() {
        return metrics;
    }

    /** Liveness: the client is not in ERROR (or on its way there) and no stream thread is dead. */
    public void checkLive() {
        KafkaStreams.State s = streams.state();
        if (!closing && (s == KafkaStreams.State.ERROR || s == KafkaStreams.State.PENDING_ERROR || s == KafkaStreams.State.NOT_RUNNING)) {
            throw new IllegalStateException("Kafka Streams is " + s);
        }
        List<String> dead = streams.metadataForLocalThreads().stream().filter(t -> "DEAD".equals(t.threadState()))
                .map(ThreadMetadata::threadName).toList();
        if (!dead.isEmpty()) throw new IllegalStateException("dead stream threads: " + dead);
    }

    /** Readiness: RUNNING (not rebalancing or restoring) and no store outage seen lately by a fan-out step. */
    public void checkReady() {
        KafkaStreams.State s = streams.state();
        if (s != KafkaStreams.State.RUNNING) throw new IllegalStateException("Kafka Streams is " + s);
        List<FanoutStatus.Outage> down = status.current();
        if (!down.isEmpty()) {
            throw new IllegalStateException(down.stream().map(o -> o.store() + " unavailable").collect(Collectors.joining(", "))
                    + " (" + metrics.pending() + " fan-out jobs waiting): " + down.get(0).message());
        }
    }

    /** Stops the client within 30 s, committing what was processed. */
    @Override
    public void close() {
        closing = true;
        streams.close(Duration.ofSeconds(30));
        fetchThreads.shutdownNow(); // reads in flight are only read-ahead: nothing to finish
        streamsMetrics.close();
    }
}
