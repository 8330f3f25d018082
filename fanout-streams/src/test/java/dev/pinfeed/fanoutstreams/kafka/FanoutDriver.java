package dev.pinfeed.fanoutstreams.kafka;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedstore.MutableClock;
import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinDeleted;
import dev.pinfeed.eventsschema.AvroEventDeserializer;
import dev.pinfeed.eventsschema.AvroEventSerializer;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.InMemorySchemaRegistryClient;
import dev.pinfeed.fanoutstreams.FanoutSettings;
import dev.pinfeed.fanoutstreams.FanoutStatus;
import dev.pinfeed.fanoutstreams.KnownActiveUsers;
import dev.pinfeed.feedstore.CelebrityPins;
import dev.pinfeed.feedstore.InterestPins;
import dev.pinfeed.feedstore.LastReadStore;
import dev.pinfeed.followergraph.GraphStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Executor;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/**
 * The fan-out topology in a {@link TopologyTestDriver}: events in, chunks and dead letters out, the
 * wall clock (punctuations) and the policy clock moved by the test. Pages are read on the stream
 * thread (a direct executor), so each turn sees every page it asks for: no test waits on time.
 */
final class FanoutDriver implements AutoCloseable {

    static final long START = 1_767_225_600_000L; // 2026-01-01

    final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
    final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    final MutableClock clock = new MutableClock(START);
    final FanoutSettings settings;
    final FanoutMetrics metrics = new FanoutMetrics(meters);
    final FanoutStatus status = new FanoutStatus(clock, Duration.ofSeconds(10));
    private final TopologyTestDriver driver;
    private final TestInputTopic<String, byte[]> pins;
    private final TestOutputTopic<String, SpecificRecord> chunks;
    private final TestOutputTopic<String, SpecificRecord> bulkChunks;
    private final TestOutputTopic<byte[], byte[]> deadLetters;
    private final AvroEventSerializer serializer = new AvroEventSerializer(registry);
    private long eventId = 1;

    FanoutDriver(FanoutSettings settings, GraphStore graph, LastReadStore lastReads, Path stateDir) {
        this(settings, graph, lastReads, stateDir, Runnable::run);
    }

    /** With the page reads run by {@code fetchThreads} (a test's hand-run queue: turns that find pages still being read). */
    FanoutDriver(FanoutSettings settings, GraphStore graph, LastReadStore lastReads, Path stateDir, Executor fetchThreads) {
        this(settings, graph, lastReads, CelebrityPins.NONE, stateDir, fetchThreads);
    }

    /** With celebrities' pins recorded in {@code celebrityPins}. */
    FanoutDriver(FanoutSettings settings, GraphStore graph, LastReadStore lastReads, CelebrityPins celebrityPins, Path stateDir,
                 Executor fetchThreads) {
        this(settings, graph, lastReads, celebrityPins, InterestPins.NONE, stateDir, fetchThreads);
    }

    /** With popular interests' pins recorded in {@code interestPins} too. */
    FanoutDriver(FanoutSettings settings, GraphStore graph, LastReadStore lastReads, CelebrityPins celebrityPins, InterestPins interestPins,
                 Path stateDir, Executor fetchThreads) {
        this.settings = settings.withStateDir(stateDir);
        Properties props = FanoutTopology.properties(this.settings, PinfeedConfig.of(new Properties()).with("kafka.bootstrap", "unused:9092"), "0", metrics, status);
        // The driver's simulation of exactly-once loses what a deserialization handler sends (its dead letters);
        // exactly-once itself is the ITs' to show, against the real broker.
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
        driver = new TopologyTestDriver(FanoutTopology.build(this.settings, registry, graph, lastReads, celebrityPins, interestPins,
                new KnownActiveUsers(KnownActiveUsers.DEFAULT_SLOT_BITS), fetchThreads, metrics, status, clock), props,
                Instant.ofEpochMilli(START));
        pins = driver.createInputTopic(this.settings.inputTopic(), new StringSerializer(), new ByteArraySerializer());
        chunks = driver.createOutputTopic(this.settings.outputTopic(), new StringDeserializer(), new AvroEventDeserializer(registry));
        bulkChunks = driver.createOutputTopic(EventTopics.bulkLaneOf(this.settings.outputTopic()), new StringDeserializer(),
                new AvroEventDeserializer(registry));
        deadLetters = driver.createOutputTopic(this.settings.deadLetterTopic(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** PinCreated of {@code pin} on {@code board} by {@code author}; returns its eventId. */
    long created(long pin, long board, long author) {
        long id = eventId++;
        publish(new PinCreated(id, Instant.ofEpochMilli(START + id), author, pin, board, author, "pin " + pin, null, null, null, java.util.List.of()));
        return id;
    }

    long deleted(long pin, long board, long author) {
        long id = eventId++;
        publish(new PinDeleted(id, Instant.ofEpochMilli(START + id), author, pin, board, author, java.util.List.of()));
        return id;
    }

    void publish(SpecificRecord event) {
        raw(EventTopics.partitionKey(event), serializer.serialize(settings.inputTopic(), event));
    }

    void raw(String key, byte[] value) {
        pins.pipeInput(key, value);
    }

    /** An event with record headers (a redriven record's, say). */
    void publish(SpecificRecord event, Headers headers) {
        pins.pipeInput(new TestRecord<>(EventTopics.partitionKey(event), serializer.serialize(settings.inputTopic(), event), headers,
                (Instant) null));
    }

    /** One punctuation. */
    void turn() {
        driver.advanceWallClockTime(settings.interval());
    }

    /**
     * Chunks sent since the last call: the fast lane's (each pin's chunk 0) in order, then the bulk
     * lane's (chunks 1, 2, …) in order. Each lane keeps a pin's chunks in order; the worker reads the
     * lanes independently, so no order between them is promised.
     */
    List<FanoutChunk> chunks() {
        List<FanoutChunk> out = lane(chunks);
        out.addAll(lane(bulkChunks));
        return out;
    }

    /** The fast lane's chunks since the last call (of this or {@link #chunks()}), then the bulk lane's, apart. */
    List<List<FanoutChunk>> lanes() {
        return List.of(lane(chunks), lane(bulkChunks));
    }

    private static List<FanoutChunk> lane(TestOutputTopic<String, SpecificRecord> topic) {
        List<FanoutChunk> out = new ArrayList<>();
        for (TestRecord<String, SpecificRecord> r : topic.readRecordsToList()) {
            FanoutChunk c = (FanoutChunk) r.value();
            if (!r.key().equals(Long.toString(c.getPinId()))) throw new AssertionError("chunk keyed " + r.key() + " for pin " + c.getPinId());
            out.add(c);
        }
        return out;
    }

    /** Turns until no job is left (at most {@code maxTurns}); every chunk sent meanwhile. */
    List<FanoutChunk> drain(int maxTurns) {
        List<FanoutChunk> out = new ArrayList<>(chunks());
        for (int i = 0; i < maxTurns && metrics.pending() > 0; i++) {
            turn();
            out.addAll(chunks());
        }
        if (metrics.pending() > 0) throw new AssertionError(metrics.pending() + " jobs still pending after " + maxTurns + " turns");
        return out;
    }

    List<TestRecord<byte[], byte[]>> deadLetters() {
        return deadLetters.readRecordsToList();
    }

    double counter(String name, String... tags) {
        return meters.get(name).tags(tags).counter().count();
    }

    @Override
    public void close() {
        driver.close();
    }
}
