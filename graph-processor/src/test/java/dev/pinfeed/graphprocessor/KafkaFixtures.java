package dev.pinfeed.graphprocessor;

import dev.pinfeed.eventsschema.AvroEventDeserializer;
import dev.pinfeed.eventsschema.AvroEventSerializer;
import dev.pinfeed.eventsschema.CachingSchemaRegistryClient;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import dev.pinfeed.eventsschema.SchemaRegistryClient;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.infra.stacktestkit.TestStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Fresh graph topics on the shared broker, and a producer that publishes graph commands as events. */
final class KafkaFixtures implements AutoCloseable {

    final TestStack stack;
    final String follows;
    final String boards;
    final String deadLetters;
    final SchemaRegistryClient registry;
    private final KafkaProducer<String, SpecificRecord> events;
    private final KafkaProducer<byte[], byte[]> raw;

    KafkaFixtures(TestStack stack) throws Exception {
        this.stack = stack;
        this.follows = stack.uniqueTopic("graph-follows");
        this.boards = stack.uniqueTopic("graph-boards");
        this.deadLetters = stack.uniqueTopic("graph-dlq");
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.config().kafkaBootstrap()))) {
            admin.createTopics(List.of(new NewTopic(follows, 3, (short) 1), new NewTopic(boards, 3, (short) 1),
                    new NewTopic(deadLetters, 1, (short) 1))).all().get();
        }
        registry = new CachingSchemaRegistryClient(new HttpSchemaRegistryClient(stack.config().schemaRegistryUrl()));
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.config().kafkaBootstrap());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        events = new KafkaProducer<>(p, new StringSerializer(), new AvroEventSerializer(registry));
        raw = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Publishes as a producer would: the event's own topic (here: the fresh one) and partition key. */
    void publish(GraphCommand command) throws Exception {
        SpecificRecord event = EventRecords.of(command);
        String topic = EventTopics.topicFor(event).equals(EventTopics.BOARDS) ? boards : follows;
        events.send(new ProducerRecord<>(topic, EventTopics.partitionKey(event), event)).get();
    }

    void publishRaw(String topic, byte[] key, byte[] value) throws Exception {
        raw.send(new ProducerRecord<>(topic, key, value)).get();
    }

    AvroEventDeserializer decoder() {
        return new AvroEventDeserializer(registry);
    }

    /** Every record of the dead-letter topic, reading until {@code expected} arrived or 20 s passed. */
    List<ConsumerRecord<byte[], byte[]>> deadLettered(int expected) {
        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.config().kafkaBootstrap());
        c.put(ConsumerConfig.GROUP_ID_CONFIG, stack.uniqueName("graph_dlq_reader"));
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(deadLetters));
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (out.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(300)).forEach(out::add);
            }
        }
        return out;
    }

    @Override
    public void close() {
        events.close();
        raw.close();
    }
}
