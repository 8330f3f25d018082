package dev.pinfeed.processorruntime;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.eventsschema.AvroEventDeserializer;
import dev.pinfeed.eventsschema.CachingSchemaRegistryClient;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.eventsschema.DecodeLimits;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import dev.pinfeed.eventsschema.SchemaRegistryClient;
import dev.pinfeed.httpkit.HealthCheck;
import dev.pinfeed.httpkit.HttpApp;
import dev.pinfeed.httpkit.Meters;
import dev.pinfeed.httpkit.RunningHttpApp;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a pinfeed process opens, in order, so it can all be closed in reverse: the configuration, the
 * meter registry (JVM, process, Kafka client and pinfeed's own meters), the application ZooKeeper,
 * consumer loops on their own threads, and the admin endpoint ({@code <process>.admin.http}:
 * {@code /health/live}, {@code /health/ready}, {@code /metrics}).
 */
public final class ProcessContext implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ProcessContext.class);

    private final String name;
    private final PinfeedConfig config;
    private final Clock clock;
    private final PrometheusMeterRegistry meters = Meters.newRegistry();
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();
    // Written by the start thread, read by probes on the admin endpoint's threads.
    private final Map<String, HealthCheck> liveness = Collections.synchronizedMap(new LinkedHashMap<>());
    private final Map<String, HealthCheck> readiness = Collections.synchronizedMap(new LinkedHashMap<>());
    private volatile boolean started;
    private final List<String> summary = new ArrayList<>();
    private CuratorFramework curator;
    private SchemaRegistryClient registry;
    private RunningHttpApp admin;
    private volatile String step = "";
    private String logHint = "";
    /** A bounded context's ranges (an operator's replay of a range), else null: a live process. */
    private final Map<TopicPartition, ConsumerLoop.Range> bounds;
    /** Consumer loops started so far (the first keeps the plain check names). */
    private final List<ConsumerLoop> loopsStarted = new ArrayList<>();

    ProcessContext(String name, PinfeedConfig config, Clock clock) {
        this(name, config, clock, null);
    }

    private ProcessContext(String name, PinfeedConfig config, Clock clock, Map<TopicPartition, ConsumerLoop.Range> bounds) {
        this.name = name;
        this.config = config;
        this.clock = clock;
        this.bounds = bounds == null ? null : Map.copyOf(bounds);
        // The admin endpoint answers while the start is still under way: not ready until it is done,
        // or a supervisor would count a process that is about to fail its next step as up.
        readiness.put("startup", () -> {
            if (!started) throw new IllegalStateException("starting" + (step.isEmpty() ? "" : ": " + step));
        });
    }

    /** The start completed ({@link ProcessMain}, or a bounded run's caller): {@code /health/ready} now reports the registered checks only. */
    public void started() {
        started = true;
    }

    public String name() {
        return name;
    }

    public PinfeedConfig config() {
        return config;
    }

    public Clock clock() {
        return clock;
    }

    public PrometheusMeterRegistry meters() {
        return meters;
    }

    /** Runs one named start-up step; a failure is reported as "&lt;process&gt;: &lt;step&gt; failed: ...". */
    public <T> T step(String description, Callable<T> work) throws Exception {
        step = description;
        T result = work.call();
        step = "";
        return result;
    }

    String currentStep() {
        return step;
    }

    /** Where to look when the start fails (e.g. the log file), printed after the one-line reason. */
    public void logHint(String hint) {
        this.logHint = hint;
    }

    String logHint() {
        return logHint;
    }

    String summary() {
        return summary.isEmpty() ? "" : ": " + String.join(", ", summary);
    }

    /** A line for the "started" log message (endpoints, groups). */
    public void describe(String fact) {
        summary.add(fact);
    }

    /** Closed at exit, in reverse order of registration. */
    public <T extends AutoCloseable> T closeOnExit(T resource) {
        synchronized (opened) {
            opened.push(resource);
        }
        return resource;
    }

    /**
     * How far the processors of {@code groups} have applied what they read ({@link UpstreamHorizon}), asked of the brokers
     * every 2 s while records wait for it; closed at exit.
     */
    public ReadHorizon upstreamHorizon(List<String> groups) {
        KafkaGroupOffsets offsets = closeOnExit(new KafkaGroupOffsets(
                org.apache.kafka.clients.admin.Admin.create(KafkaClients.admin(config)), java.time.Duration.ofSeconds(5)));
        return closeOnExit(new UpstreamHorizon(groups, offsets, clock).start(2_000));
    }

    /** The application ZooKeeper client (opened on first use, connected or failed within 20 s). */
    public synchronized CuratorFramework curator() throws InterruptedException {
        if (curator == null) curator = closeOnExit(CuratorClients.connected(config, 20));
        return curator;
    }

    /** The schema registry (with its credentials, if configured), cached (every record would otherwise cost a round trip). */
    public synchronized SchemaRegistryClient registry() {
        if (registry == null) registry = new CachingSchemaRegistryClient(HttpSchemaRegistryClient.from(config));
        return registry;
    }

    /** A dependency the process needs to do its work: reported by {@code /health/ready}. */
    public void readiness(String dependency, HealthCheck check) {
        readiness.put(dependency, check);
    }

    /** Something that must hold while the process is alive: reported by {@code /health/live}. */
    public void liveness(String what, HealthCheck check) {
        liveness.put(what, check);
    }

    /**
     * A consumer loop on its own thread, with its consumer and dead-letter producer built from
     * {@link KafkaClients} (dead letters to {@link DeadLetters#topic}) and bound to the meter registry (consumer lag per partition:
     * {@code kafka_consumer_fetch_manager_records_lag_max}). Its liveness and readiness join the
     * admin endpoint's.
     */
    public ConsumerLoop consume(ConsumerLoop.Settings settings, BatchHandler handler) {
        return consume(settings, handler, new Properties());
    }

    /** {@link #consume(ConsumerLoop.Settings, BatchHandler)} with consumer settings of this processor's own over {@link KafkaClients#consumer}. */
    public ConsumerLoop consume(ConsumerLoop.Settings given, BatchHandler handler, Properties consumerOverrides) {
        ConsumerLoop.Settings settings = bounds != null ? given.bounded(boundsOf(given.topics())) : given;
        Properties consumerSettings = bounds != null ? KafkaClients.reader(config) : KafkaClients.consumer(config, settings.groupId());
        consumerSettings.putAll(consumerOverrides);
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerSettings, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        closeOnExit(new KafkaClientMetrics(consumer)).bindTo(meters);
        KafkaProducer<byte[], byte[]> dlq = new KafkaProducer<>(KafkaClients.producer(config, settings.groupId() + "-dead-letters"),
                new ByteArraySerializer(), new ByteArraySerializer());
        DeadLetterWriter deadLetters = closeOnExit(new DeadLetterWriter(dlq, DeadLetters.topic(config), settings.groupId(), settings.processor(), meters));
        closeOnExit(new KafkaClientMetrics(dlq)).bindTo(meters);
        ConsumerLoop loop = new ConsumerLoop(consumer, new AvroEventDeserializer(registry(), DecodeLimits.from(config)), handler, deadLetters, settings, clock, meters);
        // A process's second and later loops (feed-worker's bulk lane) get their checks under their group's name.
        String suffix = loopsStarted.isEmpty() ? "" : " " + settings.groupId();
        Thread thread = new Thread(loop, name + "-consumer" + suffix.replace(' ', '-'));
        thread.setUncaughtExceptionHandler((t, e) -> LOG.error("{}: consumer loop{} died", name, suffix, e));
        closeOnExit(loop);
        loopsStarted.add(loop);
        thread.start();
        liveness("consumer-loop" + suffix, () -> {
            if (!loop.live()) throw new IllegalStateException("the consumer loop has not polled for " + settings.stallLimit().toSeconds() + " s");
        });
        readiness("kafka-group" + suffix, () -> {
            Optional<String> why = loop.notReady();
            if (why.isPresent()) throw new IllegalStateException(why.get());
        });
        readiness("stores" + suffix, () -> {
            if (loop.parkedForOutage() > 0) {
                throw new IllegalStateException(loop.parkedForOutage() + " records parked: " + loop.lastOutage());
            }
        });
        describe("group " + settings.groupId() + " on " + settings.topics());
        return loop;
    }

    /**
     * A context that runs a process's own start-up (its {@code start(ProcessContext)}) over a range of its topics
     * instead of its consumer groups: every loop it starts reads {@code ranges} (those of its topics) with no group,
     * commits nothing, and ends once the ranges are settled ({@link ConsumerLoop#rangesSettled}); its admin endpoint takes a spare
     * port. For {@code ./pinfeed replay VIEW --to ...}: the same code as the live processor applies the range.
     */
    public static ProcessContext bounded(String name, PinfeedConfig config, Clock clock, Map<TopicPartition, ConsumerLoop.Range> ranges) {
        return new ProcessContext(name, config, clock, ranges);
    }

    private Map<TopicPartition, ConsumerLoop.Range> boundsOf(List<String> topics) {
        Map<TopicPartition, ConsumerLoop.Range> out = new LinkedHashMap<>();
        bounds.forEach((tp, r) -> {
            if (topics.contains(tp.topic())) out.put(tp, r);
        });
        return out;
    }

    /** The loops started so far (a bounded context's, to follow their progress). */
    public List<ConsumerLoop> loops() {
        return List.copyOf(loopsStarted);
    }

    /** Starts the admin endpoint at {@code <process>.admin.http} with the checks registered so far and later. */
    public RunningHttpApp serveAdmin() {
        // A bounded run beside the live process (which may hold the admin port) takes a spare one.
        HostPort configured = bounds != null ? null : config.hostPort(name + ".admin.http");
        String host = configured == null ? "127.0.0.1" : configured.host();
        int port = configured == null ? 0 : configured.port();
        HttpApp.Builder app = HttpApp.builder(name).meterRegistry(meters);
        // Checks registered after this call still count: the endpoint reads the maps at each probe.
        app.liveness("process", () -> runAll(liveness));
        app.healthCheck(name, () -> runAll(readiness));
        admin = closeOnExit(app.build().start(host, port));
        describe("admin " + admin.baseUri());
        return admin;
    }

    private static void runAll(Map<String, HealthCheck> checks) throws Exception {
        List<String> failing = new ArrayList<>();
        List<Map.Entry<String, HealthCheck>> snapshot;
        synchronized (checks) {
            snapshot = List.copyOf(checks.entrySet());
        }
        for (Map.Entry<String, HealthCheck> c : snapshot) {
            try {
                c.getValue().check();
            } catch (Exception e) {
                failing.add(c.getKey() + ": " + ProcessMain.oneLine(e));
            }
        }
        if (!failing.isEmpty()) throw new IllegalStateException(String.join("; ", failing));
    }

    /** Closes everything opened, newest first; a failure to close one thing does not stop the rest. */
    @Override
    public void close() {
        while (true) {
            AutoCloseable next;
            synchronized (opened) {
                next = opened.poll();
            }
            if (next == null) return;
            try {
                next.close();
            } catch (Exception e) {
                LOG.warn("{}: closing {} failed: {}", name, next.getClass().getSimpleName(), e.toString());
            }
        }
    }
}
