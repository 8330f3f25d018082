package dev.pinfeed.fanoutstreams.kafka;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.eventsschema.AvroEventSerializer;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.SchemaRegistryClient;
import dev.pinfeed.fanoutstreams.FanoutStatus;
import dev.pinfeed.fanoutstreams.PoisonEventException;
import dev.pinfeed.fanoutstreams.related.BoardPins;
import dev.pinfeed.fanoutstreams.related.PinBoards;
import dev.pinfeed.fanoutstreams.related.RelatedMessage;
import dev.pinfeed.fanoutstreams.related.RelatedPins;
import dev.pinfeed.fanoutstreams.related.RelatedSettings;
import dev.pinfeed.fanoutstreams.related.RelatedState;
import dev.pinfeed.processorruntime.KafkaClients;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The related-pins application (Kafka Streams application {@code related.application-id}, pinfeed-related), beside the
 * fan-out in the fanout-streams process:
 * <pre>
 * pins ─┐
 *       ├─▶ route ─▶ by-pin (repartition, key = pin) ─▶ pin-stage (store related-pin-boards)
 * likes ┘                                                 └─▶ by-board (repartition, key = board) ─▶ board-stage (store related-board-pins)
 *                                                                                                       └─▶ chunks (related.output-topic)
 * </pre>
 * The stages are {@link RelatedPins}' (the core); here only their Kafka Streams adapters. Both stores are persistent
 * (RocksDB) and changelogged; exactly-once v2 as the fan-out, poison input dead-lettered by {@link DeadLetterHandlers}.
 * The related pins go to the fan-out topic (chunk 0 lane) as FanoutChunks tagged RELATED, one receiver each.
 */
public final class RelatedTopology {

    static final String PIN_STORE = "related-pin-boards";
    static final String BOARD_STORE = "related-board-pins";
    /** The repartition topics' names: {@code <application id>-by-pin-repartition}, {@code <application id>-by-board-repartition}. */
    static final String BY_PIN = "by-pin";
    static final String BY_BOARD = "by-board";

    private RelatedTopology() {}

    public static Topology build(RelatedSettings settings, SchemaRegistryClient registry, RelatedMetrics metrics) {
        RelatedPins core = new RelatedPins(settings);
        metrics.watch(core.budget());
        StreamsBuilder b = new StreamsBuilder();
        b.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(PIN_STORE), RelatedCodec.KEY_SERDE, RelatedCodec.PIN_BOARDS_SERDE));
        b.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(BOARD_STORE), RelatedCodec.KEY_SERDE,
                RelatedCodec.BOARD_PINS_SERDE));
        Serde<SourceEvent> events = Serdes.serdeFrom((topic, e) -> e == null ? null : e.raw(), SourceEvent.deserializer(registry, settings.decodeLimits()));
        AvroEventSerializer avro = new AvroEventSerializer(registry);
        Serde<FanoutChunk> chunks = Serdes.serdeFrom((topic, c) -> avro.serialize(topic, c), (topic, bytes) -> {
            throw new UnsupportedOperationException("the related app never reads chunks");
        });
        KStream<String, SourceEvent> pins = b.stream(settings.pinsTopic(), Consumed.with(Serdes.String(), events).withName("pins"));
        KStream<String, SourceEvent> likes = b.stream(settings.likesTopic(), Consumed.with(Serdes.String(), events).withName("likes"));
        pins.merge(likes, Named.as("events"))
                .process(Route::new, Named.as("route"))
                .repartition(Repartitioned.with(RelatedCodec.KEY_SERDE, RelatedCodec.MESSAGE_SERDE).withName(BY_PIN))
                .process(() -> new PinStage(core, metrics), Named.as("pin-stage"), PIN_STORE)
                .repartition(Repartitioned.with(RelatedCodec.KEY_SERDE, RelatedCodec.MESSAGE_SERDE).withName(BY_BOARD))
                .process(() -> new BoardStage(core, metrics), Named.as("board-stage"), BOARD_STORE)
                .to(settings.outputTopic(), Produced.with(Serdes.String(), chunks).withName("chunks"));
        return b.build();
    }

    /** As the fan-out's ({@link FanoutTopology#properties}): exactly-once v2, static membership, from the start, dead letters, bounded RocksDB. */
    public static Properties properties(RelatedSettings settings, PinfeedConfig config, String instance, RelatedMetrics metrics, FanoutStatus status) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, settings.applicationId());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.STATE_DIR_CONFIG, settings.stateDir().toString());
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, Integer.toString(settings.threads()));
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), settings.applicationId() + "-" + instance);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), "30000");
        p.put(StreamsConfig.producerPrefix(ProducerConfig.COMPRESSION_TYPE_CONFIG), "lz4");
        p.putAll(DeadLetterHandlers.configs(settings.deadLetterTopic(), metrics, status));
        BoundedRocksDb.applyTo(p, config);
        return KafkaClients.streams(config, p);
    }

    /** A Kafka Streams store as the core's state port. */
    private record StoreState<V>(KeyValueStore<Long, V> store) implements RelatedState<V> {
        public V get(long key) { return store.get(key); }
        public void put(long key, V value) { store.put(key, value); }
        public void delete(long key) { store.delete(key); }
    }

    /** Stage 1: pin and like events keyed by the pin they are about; anything else is poison for the handler. */
    private static final class Route implements Processor<String, SourceEvent, Long, RelatedMessage> {
        private ProcessorContext<Long, RelatedMessage> context;

        @Override
        public void init(ProcessorContext<Long, RelatedMessage> context) {
            this.context = context;
        }

        @Override
        public void process(Record<String, SourceEvent> record) {
            if (record.value() == null) throw new PoisonEventException(DeadLetters.UNDECODABLE, "empty value (tombstone) on a pins or likes topic");
            for (RelatedMessage m : RelatedPins.route(record.value().event())) {
                context.forward(new Record<>(m.key(), m, record.timestamp()));
            }
        }
    }

    /** Stage 2: board membership and asks, over the pins' store. */
    private static final class PinStage implements Processor<Long, RelatedMessage, Long, RelatedMessage> {
        private final RelatedPins core;
        private final RelatedMetrics metrics;
        private ProcessorContext<Long, RelatedMessage> context;
        private StoreState<PinBoards> pins;

        PinStage(RelatedPins core, RelatedMetrics metrics) {
            this.core = core;
            this.metrics = metrics;
        }

        @Override
        public void init(ProcessorContext<Long, RelatedMessage> context) {
            this.context = context;
            this.pins = new StoreState<>(context.getStateStore(PIN_STORE));
        }

        @Override
        public void process(Record<Long, RelatedMessage> record) {
            boolean asked = false;
            for (RelatedMessage m : core.onPin(record.value(), pins)) {
                asked |= m instanceof RelatedMessage.Asked;
                context.forward(new Record<>(m.key(), m, record.timestamp()));
            }
            if (asked) metrics.action();
        }
    }

    /** Stage 3: the boards' newest pins, and the answers to asks as chunks. */
    private static final class BoardStage implements Processor<Long, RelatedMessage, String, FanoutChunk> {
        private final RelatedPins core;
        private final RelatedMetrics metrics;
        private ProcessorContext<String, FanoutChunk> context;
        private StoreState<BoardPins> boards;

        BoardStage(RelatedPins core, RelatedMetrics metrics) {
            this.core = core;
            this.metrics = metrics;
        }

        @Override
        public void init(ProcessorContext<String, FanoutChunk> context) {
            this.context = context;
            this.boards = new StoreState<>(context.getStateStore(BOARD_STORE));
        }

        @Override
        public void process(Record<Long, RelatedMessage> record) {
            if (record.value() instanceof RelatedMessage.Joined) metrics.membership();
            for (FanoutChunk chunk : core.onBoard(record.value(), boards)) {
                context.forward(new Record<>(EventTopics.partitionKey(chunk), chunk, record.timestamp()));
                metrics.chunk();
            }
        }
    }
}
