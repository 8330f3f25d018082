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
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Fresh graph topics on the shared broker, and a producer that publishes graph commands as events. In the
 * test-jar, for other modules' tests of the graph (the operators' verify).
 */
public final class KafkaFixtures implements AutoCloseable {

    public final TestStack stack;
    public final String follows;
    public final String boards;
    public final String deadLetters;
    public final SchemaRegistryClient registry;
    private final KafkaProducer<String, SpecificRecord> events;
    private final KafkaProducer<byte[], byte[]> raw;

    public KafkaFixtures(TestStack stack) throws Exception {
        this.stack = stack;
        this.follows = stack.uniqueTopic("graph-follows");
        this.boards = stack.uniqueTopic("graph-boards");
        this.deadLetters = stack.uniqueTopic("graph-dlq");
        stack.createTopics(Map.of(follows, 3, boards, 3, deadLetters, 1));
        registry = new CachingSchemaRegistryClient(HttpSchemaRegistryClient.from(stack.config()));
        Properties p = stack.kafkaClientProperties();
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        events = new KafkaProducer<>(p, new StringSerializer(), new AvroEventSerializer(registry));
        raw = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Publishes as a producer would: the event's own topic (here: the fresh one) and partition key. */
    public void publish(GraphCommand command) throws Exception {
        SpecificRecord event = EventRecords.of(command);
        String topic = EventTopics.topicFor(event).equals(EventTopics.BOARDS) ? boards : follows;
        events.send(new ProducerRecord<>(topic, EventTopics.partitionKey(event), event)).get();
    }

    /** Publishes many at once (sends, then waits for every acknowledgement): demo-sized graphs. */
    public void publishAll(java.util.Collection<GraphCommand> commands) throws Exception {
        List<java.util.concurrent.Future<?>> sent = new java.util.ArrayList<>();
        for (GraphCommand command : commands) {
            SpecificRecord event = EventRecords.of(command);
            String topic = EventTopics.topicFor(event).equals(EventTopics.BOARDS) ? boards : follows;
            sent.add(events.send(new ProducerRecord<>(topic, EventTopics.partitionKey(event), event)));
        }
        for (java.util.concurrent.Future<?> f : sent) f.get();
    }

    public void publishRaw(String topic, byte[] key, byte[] value) throws Exception {
        raw.send(new ProducerRecord<>(topic, key, value)).get();
    }

    public AvroEventDeserializer decoder() {
        return new AvroEventDeserializer(registry);
    }

    /** Every record of the dead-letter topic, reading until {@code expected} arrived or 20 s passed. */
    public List<ConsumerRecord<byte[], byte[]>> deadLettered(int expected) {
        return stack.records(deadLetters, expected, Duration.ofSeconds(20));
    }

    @Override
    public void close() {
        events.close();
        raw.close();
    }
}
