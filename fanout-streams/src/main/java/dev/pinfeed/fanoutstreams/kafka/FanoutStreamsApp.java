package dev.pinfeed.fanoutstreams.kafka;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.SchemaRegistryClient;
import dev.pinfeed.fanoutstreams.FanoutSettings;
import dev.pinfeed.fanoutstreams.FanoutStatus;
import dev.pinfeed.fanoutstreams.KnownActiveUsers;
import dev.pinfeed.feedstore.CelebrityPins;
import dev.pinfeed.feedstore.InterestPins;
import dev.pinfeed.feedstore.LastReadStore;
import dev.pinfeed.followergraph.GraphStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
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

    /** How often the known active receivers are copied to disk, so a kill -9 loses at most this much of them. */
    static final Duration KNOWN_ACTIVE_SAVE_INTERVAL = Duration.ofMinutes(1);

    private final KafkaStreams streams;
    private final ExecutorService fetchThreads;
    private final KafkaStreamsMetrics streamsMetrics;
    private final FanoutMetrics metrics;
    private final FanoutStatus status;
    private final KnownActiveCopy knownActive;
    private volatile boolean closing;

    private FanoutStreamsApp(KafkaStreams streams, ExecutorService fetchThreads, KafkaStreamsMetrics streamsMetrics, FanoutMetrics metrics,
                             FanoutStatus status, KnownActiveCopy knownActive) {
        this.streams = streams;
        this.fetchThreads = fetchThreads;
        this.streamsMetrics = streamsMetrics;
        this.metrics = metrics;
        this.status = status;
        this.knownActive = knownActive;
    }

    /**
     * The receivers known active, kept on disk beside the streams state: loaded at start, saved every
     * {@link #KNOWN_ACTIVE_SAVE_INTERVAL} and at close. A copy that cannot be read or written costs
     * only last-read lookups (logged), never a wrong skip: {@link KnownActiveUsers#load} refuses copies
     * of another activity window.
     */
    private static final class KnownActiveCopy implements AutoCloseable {
        private final KnownActiveUsers users = new KnownActiveUsers(KnownActiveUsers.DEFAULT_SLOT_BITS);
        private final FanoutSettings settings;
        private final Clock clock;
        private final ScheduledExecutorService saver;

        KnownActiveCopy(FanoutSettings settings, Clock clock) {
            this.settings = settings;
            this.clock = clock;
            if (settings.activeDays() == 0) { // the policy is off: nobody is looked up, nothing to keep
                saver = null;
                return;
            }
            try {
                int loaded = users.load(settings.knownActiveFile(), settings.activityWindowMillis(), clock.millis());
                if (loaded > 0) LOG.info("fan-out: {} receivers known active, from {}", loaded, settings.knownActiveFile());
            } catch (IOException e) {
                LOG.warn("fan-out: starting without known active receivers: {}", e.getMessage());
            }
            saver = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "fanout-known-active-saver");
                t.setDaemon(true);
                return t;
            });
            long every = KNOWN_ACTIVE_SAVE_INTERVAL.toMillis();
            saver.scheduleWithFixedDelay(this::save, every, every, TimeUnit.MILLISECONDS);
        }

        private void save() {
            try {
                users.save(settings.knownActiveFile(), settings.activityWindowMillis(), clock.millis());
            } catch (IOException | RuntimeException e) {
                LOG.warn("fan-out: could not save the known active receivers to {}: {}", settings.knownActiveFile(), e.toString());
            }
        }

        @Override
        public void close() {
            if (saver == null) return;
            saver.shutdownNow();
            save();
        }
    }

    /**
     * Registers the FanoutChunk schema (so a registry outage shows at start, not mid-fan-out) and starts the client.
     *
     * @param config   the Kafka cluster and its client settings ({@code kafka.bootstrap}, {@code kafka.client.*}, {@code kafka.streams.*})
     * @param instance this replica's name (static membership): distinct per replica, stable across its restarts
     */
    public static FanoutStreamsApp start(FanoutSettings settings, PinfeedConfig config, String instance, SchemaRegistryClient registry,
                                         GraphStore graph, LastReadStore lastReads, MeterRegistry meters, Clock clock) {
        return start(settings, config, instance, registry, graph, lastReads, CelebrityPins.NONE, meters, clock);
    }

    /** {@code celebrityPins}: where celebrities' pins go instead of a fan-out ({@link CelebrityPins#NONE}: nobody is one). */
    public static FanoutStreamsApp start(FanoutSettings settings, PinfeedConfig config, String instance, SchemaRegistryClient registry,
                                         GraphStore graph, LastReadStore lastReads, CelebrityPins celebrityPins, MeterRegistry meters,
                                         Clock clock) {
        return start(settings, config, instance, registry, graph, lastReads, celebrityPins, InterestPins.NONE, meters, clock);
    }

    /** {@code interestPins}: where popular interests' pins go instead of a fan-out ({@link InterestPins#NONE}: none is). */
    public static FanoutStreamsApp start(FanoutSettings settings, PinfeedConfig config, String instance, SchemaRegistryClient registry,
                                         GraphStore graph, LastReadStore lastReads, CelebrityPins celebrityPins, InterestPins interestPins,
                                         MeterRegistry meters, Clock clock) {
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
        KnownActiveCopy knownActive = new KnownActiveCopy(settings, clock);
        KafkaStreams streams;
        try {
            streams = new KafkaStreams(FanoutTopology.build(settings, registry, graph, lastReads, celebrityPins, interestPins, knownActive.users, fetchThreads, metrics,
                    status, clock), FanoutTopology.properties(settings, config, instance, metrics, status));
        } catch (RuntimeException e) {
            knownActive.close();
            fetchThreads.shutdownNow();
            throw e;
        }
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
        return new FanoutStreamsApp(streams, fetchThreads, streamsMetrics, metrics, status, knownActive);
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
    public synchronized void close() {
        if (closing) return; // once: a second close must not save an older copy over a newer app's
        closing = true;
        streams.close(Duration.ofSeconds(30));
        fetchThreads.shutdownNow(); // reads in flight are only read-ahead: nothing to finish
        streamsMetrics.close();
        knownActive.close(); // last, so it holds what the closing tasks learned
    }
}
