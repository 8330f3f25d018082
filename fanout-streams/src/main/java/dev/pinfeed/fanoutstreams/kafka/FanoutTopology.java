package dev.pinfeed.fanoutstreams.kafka;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.processorruntime.KafkaClients;
import dev.pinfeed.eventsschema.AvroEventSerializer;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.SchemaRegistryClient;
import dev.pinfeed.fanoutstreams.FanoutSettings;
import dev.pinfeed.fanoutstreams.FanoutStatus;
import dev.pinfeed.fanoutstreams.FanoutStepper;
import dev.pinfeed.fanoutstreams.KnownActiveUsers;
import dev.pinfeed.feedstore.CelebrityPins;
import dev.pinfeed.feedstore.InterestPins;
import dev.pinfeed.feedstore.LastReadStore;
import dev.pinfeed.followergraph.GraphStore;
import java.time.Clock;
import java.util.Properties;
import java.util.concurrent.Executor;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The fan-out topology and its Kafka Streams settings.
 * <pre>
 * pins (inputTopic) ──▶ fanout (FanoutProcessor, store fanout-jobs) ──▶ chunks (outputTopic, FanoutChunk keyed by pin: chunk 0)
 *                                                                   ├──▶ bulk-chunks (bulkLaneOf(outputTopic): chunks 1, 2, …)
 *                                                                   └──▶ dead-letters (deadLetterTopic)
 * </pre>
 * The store is persistent (RocksDB under {@code fanout.state-dir}) and changelogged, so jobs survive
 * restarts and move with their partition on a rebalance.
 */
public final class FanoutTopology {

    private FanoutTopology() {}

    /**
     * {@code fetchThreads} read the jobs' pages ahead of the stream thread ({@link dev.pinfeed.fanoutstreams.PageFetcher});
     * {@code knownActive} remembers the receivers found active (the app keeps it across restarts).
     */
    public static Topology build(FanoutSettings settings, SchemaRegistryClient registry, GraphStore graph, LastReadStore lastReads,
                                 KnownActiveUsers knownActive, Executor fetchThreads, FanoutMetrics metrics, FanoutStatus status, Clock clock) {
        return build(settings, registry, graph, lastReads, CelebrityPins.NONE, knownActive, fetchThreads, metrics, status, clock);
    }

    /** {@code celebrityPins}: where celebrities' pins go instead of a fan-out ({@link CelebrityPins#NONE}: nobody is one). */
    public static Topology build(FanoutSettings settings, SchemaRegistryClient registry, GraphStore graph, LastReadStore lastReads,
                                 CelebrityPins celebrityPins, KnownActiveUsers knownActive, Executor fetchThreads, FanoutMetrics metrics,
                                 FanoutStatus status, Clock clock) {
        return build(settings, registry, graph, lastReads, celebrityPins, InterestPins.NONE, knownActive, fetchThreads, metrics, status, clock);
    }

    /** {@code interestPins}: where popular interests' pins go instead of a fan-out ({@link InterestPins#NONE}: none is). */
    public static Topology build(FanoutSettings settings, SchemaRegistryClient registry, GraphStore graph, LastReadStore lastReads,
                                 CelebrityPins celebrityPins, InterestPins interestPins, KnownActiveUsers knownActive, Executor fetchThreads,
                                 FanoutMetrics metrics, FanoutStatus status, Clock clock) {
        FanoutStepper stepper = new FanoutStepper(graph, lastReads, settings, knownActive, celebrityPins, interestPins, clock);
        Topology t = new Topology();
        t.addSource("pins", new StringDeserializer(), SourceEvent.deserializer(registry, settings.decodeLimits()), settings.inputTopic());
        t.addProcessor("fanout", () -> new FanoutProcessor(stepper, fetchThreads, settings, metrics, status, clock), "pins");
        t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(FanoutProcessor.STORE),
                FanoutJobCodec.KEY_SERDE, FanoutJobCodec.VALUE_SERDE), "fanout");
        t.addSink(FanoutProcessor.CHUNKS, settings.outputTopic(), new StringSerializer(), new AvroEventSerializer(registry), "fanout");
        t.addSink(FanoutProcessor.BULK_CHUNKS, EventTopics.bulkLaneOf(settings.outputTopic()), new StringSerializer(),
                new AvroEventSerializer(registry), "fanout");
        t.addSink(FanoutProcessor.DEAD_LETTERS, settings.deadLetterTopic(), new ByteArraySerializer(), new ByteArraySerializer(), "fanout");
        return t;
    }

    /**
     * Exactly-once v2 (the chunks, the jobs' changelog and the input offsets commit in one transaction;
     * on one broker this needs transaction.state.log.replication.factor=1 and min.isr=1), pinfeed's
     * dead-letter handlers, static membership (a restarted instance takes its tasks back without
     * waiting out the dead member's session), a new application reads the pins topic from the start, the
     * process's RocksDB stores within one memory bound ({@link BoundedRocksDb}); on
     * the configured cluster with the configured client settings ({@link KafkaClients#streams}).
     */
    public static Properties properties(FanoutSettings settings, PinfeedConfig config, String instance, FanoutMetrics metrics, FanoutStatus status) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, settings.applicationId());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.STATE_DIR_CONFIG, settings.stateDir().toString());
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, Integer.toString(settings.threads()));
        // An idle stream thread blocks in poll for poll.ms before it punctuates: no longer than a turn's interval.
        p.put(StreamsConfig.POLL_MS_CONFIG, Long.toString(Math.min(100, settings.interval().toMillis())));
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), settings.applicationId() + "-" + instance);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), "30000");
        p.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), "lz4");
        p.putAll(DeadLetterHandlers.configs(settings, metrics, status));
        BoundedRocksDb.applyTo(p, config);
        return KafkaClients.streams(config, p);
    }
}
