package dev.pinfeed.faulttests;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.eventsschema.AvroEventDeserializer;
import dev.pinfeed.eventsschema.CachingSchemaRegistryClient;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import dev.pinfeed.eventsschema.SchemaRegistryClient;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.processorruntime.BatchHandler;
import dev.pinfeed.processorruntime.ConsumerLoop;
import dev.pinfeed.processorruntime.DeadLetterWriter;
import dev.pinfeed.processorruntime.KafkaClients;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Processors in this JVM as their mains run them ({@code ProcessContext.consume}: a ConsumerLoop on its
 * own thread, a fresh consumer group, a dead-letter topic), and everything else the test opens, closed
 * in reverse. A small adapted copy of pipeline-tests' Pipeline.consume (package-private there).
 */
final class Processors implements AutoCloseable {

    final TestStack stack;
    final PinfeedConfig config;
    final String deadLetters;
    final SchemaRegistryClient registry;
    private final List<AutoCloseable> open = new ArrayList<>();

    Processors(TestStack stack) {
        this.stack = stack;
        this.config = stack.config();
        deadLetters = stack.uniqueTopic("fault-dlq");
        stack.createTopics(Map.of(deadLetters, 1));
        registry = new CachingSchemaRegistryClient(HttpSchemaRegistryClient.from(config));
    }

    /** Runs {@code handler} over {@code inputs} on a fresh group; returns the loop's meters (parked records, retries). */
    SimpleMeterRegistry consume(String processor, List<String> inputs, BatchHandler handler) {
        String group = stack.uniqueName("fault_" + processor.replace('-', '_'));
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(KafkaClients.consumer(config, group),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        KafkaProducer<byte[], byte[]> dlq = new KafkaProducer<>(KafkaClients.producer(config, group + "-dlq"),
                new ByteArraySerializer(), new ByteArraySerializer());
        DeadLetterWriter writer = closing(new DeadLetterWriter(dlq, deadLetters, group, processor, meters));
        ConsumerLoop loop = new ConsumerLoop(consumer, new AvroEventDeserializer(registry), handler, writer,
                ConsumerLoop.Settings.of(processor, group, inputs).withWaitGrace(Duration.ofMinutes(2)), Clock.systemUTC(), meters);
        Thread t = new Thread(loop, "fault-" + processor);
        t.setDaemon(true);
        t.start();
        closing(() -> {
            loop.close();
            t.join(10_000);
        });
        return meters;
    }

    <T extends AutoCloseable> T closing(T resource) {
        open.add(resource);
        return resource;
    }

    @Override
    public void close() {
        for (int i = open.size() - 1; i >= 0; i--) {
            try {
                open.get(i).close();
            } catch (Exception ignored) { // teardown: the shared stack outlives us
            }
        }
    }
}
