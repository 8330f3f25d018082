package dev.pinfeed.materializer;

import dev.pinfeed.canonicalstore.CacheInvalidator;
import dev.pinfeed.canonicalstore.ComparableRows;
import dev.pinfeed.canonicalstore.mysql.CanonicalSnapshot;
import dev.pinfeed.canonicalstore.mysql.MysqlCanonicalWriter;
import dev.pinfeed.canonicalstore.redis.RedisCacheInvalidator;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.eventsschema.AvroEventDeserializer;
import dev.pinfeed.eventsschema.AvroEventSerializer;
import dev.pinfeed.eventsschema.CachingSchemaRegistryClient;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import dev.pinfeed.eventsschema.SchemaRegistryClient;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.processorruntime.BatchHandler;
import dev.pinfeed.processorruntime.ConsumerLoop;
import dev.pinfeed.processorruntime.DeadLetterWriter;
import dev.pinfeed.processorruntime.KafkaClients;
import dev.pinfeed.redisshards.RedisShards;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * What the materializer's ITs share: fresh topics (users, boards, pins, likes, comments, dead letters) on the
 * shared broker, a producer that publishes events the way producers do (registry, wire format, the
 * event's key), fresh sharded ids, the real shard pools and Redis, and consumer loops run in-process.
 */
public final class Fixture implements AutoCloseable {

    public final TestStack stack;
    public final PinfeedConfig config;
    public final MaterializerTopics topics;
    public final String deadLetters;
    final SchemaRegistryClient registry;
    public final ShardDataSources sources;
    public final ShardedDb db;
    final MysqlCanonicalWriter writer;
    public final RedisCacheInvalidator cache;
    final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final KafkaProducer<String, SpecificRecord> events;
    private final KafkaProducer<byte[], byte[]> raw;
    private final List<AutoCloseable> running = new ArrayList<>();

    public Fixture(TestStack stack) throws Exception {
        this.stack = stack;
        this.config = stack.config();
        this.topics = new MaterializerTopics(stack.uniqueTopic("users"), stack.uniqueTopic("boards"), stack.uniqueTopic("pins"),
                stack.uniqueTopic("likes"), stack.uniqueTopic("comments"), stack.uniqueTopic("interests"));
        this.deadLetters = stack.uniqueTopic("canonical-dlq");
        Map<String, Integer> fresh = new LinkedHashMap<>();
        for (String t : topics.all()) fresh.put(t, 3);
        fresh.put(deadLetters, 1);
        stack.createTopics(fresh);
        registry = new CachingSchemaRegistryClient(HttpSchemaRegistryClient.from(config));
        events = new KafkaProducer<>(KafkaClients.producer(config, "canonical-it"), new StringSerializer(), new AvroEventSerializer(registry));
        raw = new KafkaProducer<>(KafkaClients.producer(config, "canonical-it-raw"), new ByteArraySerializer(), new ByteArraySerializer());
        sources = ShardDataSources.from(config, "canonical-it", 4);
        db = new ShardedDb(sources);
        writer = new MysqlCanonicalWriter(db);
        cache = RedisCacheInvalidator.connect(config, () -> RedisShards.defaultShardMap(config));
    }

    /**
     * A sharded id of {@code type} never issued before on this stack: the test kit's fresh number split
     * into a local id (low 36 bits) and a shard (the bits above, scrambled by the local id: a bijection,
     * so no two fresh numbers share a (shard, local id) while they stay below 2^48).
     */
    public long freshId(ObjectType type) {
        while (true) {
            long f = stack.freshId();
            long local = f & ShardedId.MAX_LOCAL_ID;
            if (local == 0) continue;
            int shardCount = db.shardCount();
            int shard = (int) Math.floorMod((f >>> ShardedId.LOCAL_ID_BITS) ^ (local * 0x9E3779B97F4A7C15L >>> 52), (long) shardCount);
            return ShardedId.compose(shard, type, local);
        }
    }

    /** The fresh topic standing in for the event's production topic. */
    String topicOf(SpecificRecord event) {
        String prod = EventTopics.topicFor(event);
        if (prod.equals(EventTopics.USERS)) return topics.users();
        if (prod.equals(EventTopics.BOARDS)) return topics.boards();
        if (prod.equals(EventTopics.PINS)) return topics.pins();
        if (prod.equals(EventTopics.LIKES)) return topics.likes();
        if (prod.equals(EventTopics.COMMENTS)) return topics.comments();
        if (prod.equals(EventTopics.INTERESTS)) return topics.interests();
        throw new IllegalArgumentException("no canonical topic for " + prod);
    }

    public void publish(SpecificRecord... list) throws Exception {
        publishAll(List.of(list));
    }

    public void publishAll(Collection<? extends SpecificRecord> list) throws Exception {
        List<Future<?>> sent = new ArrayList<>();
        for (SpecificRecord e : list) sent.add(events.send(new ProducerRecord<>(topicOf(e), EventTopics.partitionKey(e), e)));
        events.flush();
        for (Future<?> f : sent) f.get();
    }

    /** An event on a topic of our choosing (e.g. one that should not carry it). */
    void publishTo(String topic, SpecificRecord event) throws Exception {
        events.send(new ProducerRecord<>(topic, EventTopics.partitionKey(event), event)).get();
    }

    void publishRaw(String topic, String key, byte[] value) throws Exception {
        raw.send(new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8), value)).get();
    }

    public MaterializerHandler handler(CacheInvalidator invalidator) {
        return new MaterializerHandler(new EventPlanner(), writer, invalidator, topics, meters);
    }

    public ConsumerLoop.Settings settings(String group) {
        return ConsumerLoop.Settings.of("materializer", group, topics.all()).withRetry(Duration.ofMillis(100), Duration.ofMillis(500));
    }

    /** A consumer loop on its own thread (as ProcessContext.consume runs one), stopped at {@link #close}. */
    public ConsumerLoop run(ConsumerLoop.Settings settings, BatchHandler handler) {
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(KafkaClients.consumer(config, settings.groupId()),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        KafkaProducer<byte[], byte[]> dlq = new KafkaProducer<>(KafkaClients.producer(config, settings.groupId() + "-dlq"),
                new ByteArraySerializer(), new ByteArraySerializer());
        DeadLetterWriter writer = new DeadLetterWriter(dlq, deadLetters, settings.groupId(), settings.processor(), meters);
        ConsumerLoop loop = new ConsumerLoop(consumer, new AvroEventDeserializer(registry), handler, writer, settings, Clock.systemUTC(), meters);
        Thread t = new Thread(loop, "it-" + settings.groupId());
        t.setDaemon(true);
        t.start();
        running.add(writer);
        running.add(loop);
        return loop;
    }

    public ComparableRows snapshot(Collection<Long> ids, boolean withTs) {
        return CanonicalSnapshot.read(db, ids, withTs);
    }

    /** The dead letters of this fixture's topics so far, waiting up to {@code wait} for {@code expected} of them. */
    List<ConsumerRecord<byte[], byte[]>> deadLettered(int expected, Duration wait) {
        return stack.records(deadLetters, expected, wait);
    }

    static String header(ConsumerRecord<byte[], byte[]> r, String name) {
        return TestStack.header(r, name);
    }

    static String reason(ConsumerRecord<byte[], byte[]> r) {
        return header(r, DeadLetters.HEADER_REASON);
    }

    @Override
    public void close() {
        for (int i = running.size() - 1; i >= 0; i--) {
            try {
                running.get(i).close();
            } catch (Exception ignored) {
                // best effort at teardown
            }
        }
        events.close();
        raw.close();
        cache.close();
        writer.close();
        db.close();
        sources.close();
    }
}
