package dev.pinfeed.graphprocessor;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.eventsschema.AvroEventDeserializer;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.SchemaRegistryClient;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.InvalidCommandException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the graph in step with the follow and board topics: a plain consumer that decodes each
 * record, applies it to the {@link GraphStore} and commits offsets only after the records before them
 * are applied (at-least-once; the store's writes are idempotent and order-free, so redelivery is
 * harmless). A record that cannot be decoded, is not a graph event, or breaks a rule goes to the dead
 * letter topic with headers saying why and where it came from, and the pipeline moves on. A store
 * failure (Redis down) is retried in place with backoff: nothing is skipped or committed past it.
 */
public final class GraphProcessor implements Runnable, AutoCloseable {

    public static final String DEAD_LETTER_TOPIC = "pinfeed.dead-letter.v1";

    public static final String HEADER_REASON = "pinfeed.dlq.reason";
    public static final String HEADER_ERROR = "pinfeed.dlq.error";
    public static final String HEADER_SOURCE_TOPIC = "pinfeed.dlq.source.topic";
    public static final String HEADER_SOURCE_PARTITION = "pinfeed.dlq.source.partition";
    public static final String HEADER_SOURCE_OFFSET = "pinfeed.dlq.source.offset";
    public static final String HEADER_CONSUMER = "pinfeed.dlq.consumer";

    /** Reasons in {@link #HEADER_REASON}. */
    public static final String UNDECODABLE = "undecodable";
    public static final String UNEXPECTED_EVENT = "unexpected-event";
    public static final String INVALID = "invalid";

    private static final Logger LOG = LoggerFactory.getLogger(GraphProcessor.class);

    /** Where and as whom to consume. */
    public record Settings(String bootstrap, String groupId, List<String> topics, String deadLetterTopic) {

        /** {@code graph.processor.group} (default {@code pinfeed-follower-graph}), the standard topics. */
        public static Settings from(PinfeedConfig config) {
            return new Settings(config.kafkaBootstrap(), config.get("graph.processor.group", "pinfeed-follower-graph"),
                    List.of(EventTopics.FOLLOWS, EventTopics.BOARDS), DEAD_LETTER_TOPIC);
        }
    }

    /** What the processor did so far. */
    public record Stats(long applied, long ignored, long deadLettered) {
        public long records() {
            return applied + ignored + deadLettered;
        }
    }

    /** A record, decoded: a command, nothing to do, or a rejection with its reason. */
    sealed interface Decoded {
        record Apply(GraphCommand command) implements Decoded {}

        record Ignore() implements Decoded {}

        record Reject(String reason, String error) implements Decoded {}
    }

    private final Consumer<byte[], byte[]> consumer;
    private final Producer<byte[], byte[]> deadLetters;
    private final Deserializer<SpecificRecord> decoder;
    private final GraphStore store;
    private final Settings settings;
    private final AtomicLong applied = new AtomicLong();
    private final AtomicLong ignored = new AtomicLong();
    private final AtomicLong deadLettered = new AtomicLong();
    private final Map<TopicPartition, OffsetAndMetadata> done = new HashMap<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean closing;
    private volatile boolean running;

    GraphProcessor(Consumer<byte[], byte[]> consumer, Producer<byte[], byte[]> deadLetters, Deserializer<SpecificRecord> decoder,
                         GraphStore store, Settings settings) {
        this.consumer = consumer;
        this.deadLetters = deadLetters;
        this.decoder = decoder;
        this.store = store;
        this.settings = settings;
    }

    public static GraphProcessor create(Settings settings, SchemaRegistryClient registry, GraphStore store) {
        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrap());
        c.put(ConsumerConfig.GROUP_ID_CONFIG, settings.groupId());
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"); // a new group builds the graph from the whole history
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "500");
        c.put(ConsumerConfig.CLIENT_ID_CONFIG, settings.groupId() + "-consumer");
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrap());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, settings.groupId() + "-dead-letters");
        return new GraphProcessor(new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer()),
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer()),
                new AvroEventDeserializer(registry), store, settings);
    }

    public Settings settings() {
        return settings;
    }

    public Stats stats() {
        return new Stats(applied.get(), ignored.get(), deadLettered.get());
    }

    @Override
    public void run() {
        running = true;
        try {
            consumer.subscribe(settings.topics(), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(java.util.Collection<TopicPartition> partitions) {
                    commit(); // hand over exactly what was applied
                }

                @Override
                public void onPartitionsAssigned(java.util.Collection<TopicPartition> partitions) {}
            });
            while (!closing) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(500));
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    if (!handle(r)) break;
                    done.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
                }
                commit();
            }
        } catch (WakeupException e) {
            if (!closing) throw e;
        } finally {
            try {
                commit();
            } catch (RuntimeException e) {
                LOG.warn("final offset commit failed (the records will be applied again): {}", e.toString());
            }
            consumer.close();
            deadLetters.close();
            stopped.countDown();
        }
    }

    private void commit() {
        if (done.isEmpty()) return;
        consumer.commitSync(new HashMap<>(done));
        done.clear();
    }

    /** Handles one record; false when closing interrupted it (it stays uncommitted). */
    private boolean handle(ConsumerRecord<byte[], byte[]> r) {
        Decoded d = decode(decoder, r.topic(), r.value());
        if (d instanceof Decoded.Ignore) {
            ignored.incrementAndGet();
            return true;
        }
        if (d instanceof Decoded.Reject rej) {
            deadLetter(r, rej);
            return true;
        }
        GraphCommand command = ((Decoded.Apply) d).command();
        long backoff = 100;
        while (true) {
            try {
                store.apply(command);
                applied.incrementAndGet();
                return true;
            } catch (InvalidCommandException e) {
                deadLetter(r, new Decoded.Reject(INVALID, e.getMessage()));
                return true;
            } catch (RuntimeException e) {
                if (closing) return false;
                LOG.warn("cannot apply {}-{}@{} ({}); retrying in {} ms", r.topic(), r.partition(), r.offset(), e.toString(), backoff);
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return false;
                }
                backoff = Math.min(backoff * 2, 5_000);
            }
        }
    }

    /** Decodes a record's value: shared with {@link GraphRebuild} so both read the topics alike. */
    static Decoded decode(Deserializer<SpecificRecord> decoder, String topic, byte[] value) {
        SpecificRecord event;
        try {
            event = decoder.deserialize(topic, value);
        } catch (RuntimeException e) {
            return new Decoded.Reject(UNDECODABLE, e.getMessage());
        }
        if (event == null) return new Decoded.Reject(UNDECODABLE, "empty value");
        try {
            Optional<GraphCommand> command = GraphEvents.toCommand(event);
            return command.<Decoded>map(Decoded.Apply::new).orElseGet(Decoded.Ignore::new);
        } catch (GraphEvents.UnexpectedEventException e) {
            return new Decoded.Reject(UNEXPECTED_EVENT, e.getMessage());
        } catch (InvalidCommandException e) {
            return new Decoded.Reject(INVALID, e.getMessage());
        }
    }

    /** The original key, value and headers, plus ours; sent synchronously so it is durable before the commit. */
    private void deadLetter(ConsumerRecord<byte[], byte[]> r, Decoded.Reject why) {
        RecordHeaders headers = new RecordHeaders();
        for (Header h : r.headers()) headers.add(h);
        headers.add(HEADER_REASON, bytes(why.reason()));
        headers.add(HEADER_ERROR, bytes(String.valueOf(why.error())));
        headers.add(HEADER_SOURCE_TOPIC, bytes(r.topic()));
        headers.add(HEADER_SOURCE_PARTITION, bytes(Integer.toString(r.partition())));
        headers.add(HEADER_SOURCE_OFFSET, bytes(Long.toString(r.offset())));
        headers.add(HEADER_CONSUMER, bytes(settings.groupId()));
        while (true) {
            try {
                deadLetters.send(new ProducerRecord<>(settings.deadLetterTopic(), null, r.key(), r.value(), headers)).get();
                break;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while dead-lettering", e);
            } catch (java.util.concurrent.ExecutionException e) {
                if (closing) throw new IllegalStateException("cannot dead-letter while closing", e.getCause());
                LOG.warn("cannot dead-letter {}-{}@{}: {}; retrying", r.topic(), r.partition(), r.offset(), e.getCause().toString());
            }
        }
        deadLettered.incrementAndGet();
        LOG.warn("dead-lettered {}-{}@{} ({}): {}", r.topic(), r.partition(), r.offset(), why.reason(), why.error());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Stops after the record in hand, commits what was applied, and waits up to 30 s for that. */
    @Override
    public void close() {
        closing = true;
        if (!running) {
            consumer.close();
            deadLetters.close();
            return;
        }
        consumer.wakeup();
        try {
            if (!stopped.await(30, TimeUnit.SECONDS)) LOG.warn("processor did not stop within 30 s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
