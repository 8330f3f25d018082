package dev.pinfeed.fanoutstreams.kafka;

import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.events.FanoutReceiver;
import dev.pinfeed.events.FanoutSource;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.eventsschema.AvroEventDeserializer;
import dev.pinfeed.eventsschema.AvroEventSerializer;
import dev.pinfeed.eventsschema.CachingSchemaRegistryClient;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import dev.pinfeed.eventsschema.SchemaRegistryClient;
import dev.pinfeed.fanoutstreams.FanoutSettings;
import dev.pinfeed.feedstore.redis.RedisLastReadStore;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.redis.GraphConnections;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.processorruntime.KafkaClients;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * What the fan-out ITs share on the shared stack: fresh topics and application id, a graph under a
 * fresh key prefix, pin events published as ingest does, and the committed output read back.
 */
public final class StackFixtures implements AutoCloseable {

    public final TestStack stack;
    public final String pins;
    public final String chunks;
    public final String deadLetters;
    public final String applicationId;
    public final String keyPrefix;
    public final SchemaRegistryClient registry;
    public final CuratorFramework zk;
    public final GraphConnections graph;
    /** The last reads the fan-out asks about, under the graph's key prefix (as in production). */
    public final RedisLastReadStore lastReads;
    private final KafkaProducer<byte[], byte[]> producer;
    private final AvroEventSerializer serializer;
    private final AtomicLong version = new AtomicLong(System.currentTimeMillis());

    public StackFixtures(TestStack stack) throws Exception {
        this.stack = stack;
        pins = stack.uniqueTopic("fanout-pins");
        chunks = stack.uniqueTopic("fanout-chunks");
        deadLetters = stack.uniqueTopic("fanout-dlq");
        applicationId = stack.uniqueName("fanout_it");
        keyPrefix = stack.keyPrefix("fanout");
        Map<String, Integer> partitions = new LinkedHashMap<>();
        for (String topic : List.of(pins, chunks, EventTopics.bulkLaneOf(chunks))) partitions.put(topic, 3);
        partitions.put(deadLetters, 1);
        stack.createTopics(partitions);
        registry = new CachingSchemaRegistryClient(HttpSchemaRegistryClient.from(stack.config()));
        serializer = new AvroEventSerializer(registry);
        producer = new KafkaProducer<>(KafkaClients.producer(stack.config(), "fanout-it"), new ByteArraySerializer(), new ByteArraySerializer());
        zk = CuratorClients.connected(stack.config(), 20);
        graph = GraphConnections.open(stack.config(), zk, keyPrefix);
        lastReads = RedisLastReadStore.open(stack.config(), graph.redis(), graph.store().keys().prefix());
    }

    FanoutSettings settings(java.nio.file.Path stateDir) {
        return FanoutSettings.defaults().withTopics(applicationId, pins, chunks, deadLetters).withStateDir(stateDir);
    }

    /** Board {@code board} of {@code owner}, and {@code n} fresh users following {@code owner}; returns them. */
    public List<Long> authorWithFollowers(long owner, long board, int n) throws Exception {
        apply(List.of(new GraphCommand.CreateBoard(version.incrementAndGet(), Instant.now().toEpochMilli(), board, owner)));
        List<Long> followers = new ArrayList<>(n);
        List<GraphCommand> follows = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long f = stack.freshId();
            followers.add(f);
            follows.add(new GraphCommand.FollowUser(version.incrementAndGet(), Instant.now().toEpochMilli(), f, owner));
        }
        apply(follows);
        return followers;
    }

    /** Applies commands on 4 threads (one at a time is ~0.3 ms each against Redis). */
    void apply(List<GraphCommand> commands) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            int slice = (commands.size() + 3) / 4;
            for (int from = 0; from < commands.size(); from += slice) {
                List<GraphCommand> part = commands.subList(from, Math.min(commands.size(), from + slice));
                done.add(pool.submit(() -> part.forEach(graph.store()::apply)));
            }
            for (Future<?> f : done) f.get();
        } finally {
            pool.shutdown();
        }
    }

    long nextVersion() {
        return version.incrementAndGet();
    }

    public PinCreated pinCreated(long pin, long board, long author) {
        long id = version.incrementAndGet();
        return new PinCreated(id, Instant.now(), author, pin, board, author, "it pin " + pin, null, null, null, java.util.List.of());
    }

    public void publish(SpecificRecord event) throws Exception {
        publishRaw(EventTopics.partitionKey(event), serializer.serialize(pins, event));
    }

    void publishRaw(String key, byte[] value) throws Exception {
        producer.send(new ProducerRecord<>(pins, key.getBytes(java.nio.charset.StandardCharsets.UTF_8), value)).get();
    }

    /** The fanout-streams process's properties for these fixtures' topics and application id, its state in {@code stateDir}. */
    public Map<String, String> processProperties(java.nio.file.Path stateDir) {
        Map<String, String> props = new java.util.HashMap<>();
        props.put("fanout.application-id", applicationId);
        props.put("fanout.input-topic", pins);
        props.put("fanout.output-topic", chunks);
        props.put("fanout.dead-letter-topic", deadLetters);
        props.put("fanout.state-dir", stateDir.toString());
        return props;
    }

    /** A read_committed reader of the chunk topic and its bulk lane from their start, outside any group. */
    public KafkaConsumer<byte[], byte[]> chunkReader() {
        return reader(chunks, EventTopics.bulkLaneOf(chunks));
    }

    /** A read_committed reader of topics from their start, outside any group. */
    KafkaConsumer<byte[], byte[]> reader(String... topics) {
        Properties p = KafkaClients.reader(stack.config());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> parts = new ArrayList<>();
        for (String topic : topics) {
            for (PartitionInfo i : c.partitionsFor(topic)) parts.add(new TopicPartition(topic, i.partition()));
        }
        c.assign(parts);
        c.seekToBeginning(parts);
        return c;
    }

    /** The committed chunks, read with {@code reader} until {@code done} holds for those read so far, or the deadline. */
    public List<FanoutChunk> readChunks(KafkaConsumer<byte[], byte[]> reader, List<FanoutChunk> soFar, Predicate<List<FanoutChunk>> done,
                                 Duration timeout) {
        AvroEventDeserializer decoder = new AvroEventDeserializer(registry);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.test(soFar) && System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> r : reader.poll(Duration.ofMillis(200))) {
                FanoutChunk c = (FanoutChunk) decoder.deserialize(chunks, r.value());
                if (!new String(r.key(), java.nio.charset.StandardCharsets.UTF_8).equals(Long.toString(c.getPinId()))) {
                    throw new AssertionError("chunk of pin " + c.getPinId() + " keyed " + new String(r.key()));
                }
                soFar.add(c);
            }
        }
        return soFar;
    }

    /**
     * True once the last chunk of each pin's ADD was read, and every chunk before it: a pin's first chunk
     * and its later ones travel on two topics (the bulk lane), so the last may be read before the first.
     */
    public static Predicate<List<FanoutChunk>> lastChunksOf(long... pins) {
        return read -> {
            for (long p : pins) {
                Optional<FanoutChunk> last = read.stream().filter(c -> c.getPinId() == p && c.getLastChunk()).findAny();
                if (last.isEmpty()) return false;
                long indexes = read.stream().filter(c -> c.getPinId() == p).mapToInt(FanoutChunk::getChunkIndex).distinct()
                        .filter(i -> i <= last.get().getChunkIndex()).count();
                if (indexes < last.get().getChunkIndex() + 1L) return false;
            }
            return true;
        };
    }

    /** Each receiver of {@code pin} with the sources he was named with (a list: a repeat shows as two). */
    public static Map<Long, List<FanoutSource>> receiversOf(List<FanoutChunk> chunks, long pin) {
        Map<Long, List<FanoutSource>> out = new HashMap<>();
        for (FanoutChunk c : chunks) {
            if (c.getPinId() != pin) continue;
            for (FanoutReceiver r : c.getReceivers()) out.computeIfAbsent(r.getUserId(), u -> new ArrayList<>()).add(r.getSource());
        }
        return out;
    }

    @Override
    public void close() {
        producer.close();
        lastReads.close();
        graph.close();
        zk.close();
    }
}
