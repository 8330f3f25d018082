package dev.pinfeed.graphprocessor;

import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.processorruntime.ConsumerLoop;
import dev.pinfeed.processorruntime.DeadLetterWriter;
import dev.pinfeed.processorruntime.KafkaClients;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The graph processor as GraphProcessorMain assembles it, on fresh topics and a fresh group (or a given one),
 * on a thread of the test JVM. In the test-jar, for other modules' tests of the graph.
 */
public final class RunningProcessor implements AutoCloseable {

    public final String group;
    public final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final ConsumerLoop loop;
    private final Thread thread;

    public RunningProcessor(KafkaFixtures kafka, GraphStore graph) {
        this(kafka, graph, kafka.stack.uniqueName("graph_processor"));
    }

    /** On consumer group {@code group}: a processor started again on the same group resumes from its commits. */
    public RunningProcessor(KafkaFixtures kafka, GraphStore graph, String group) {
        this.group = group;
        var config = kafka.stack.config();
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(KafkaClients.consumer(config, group),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        KafkaProducer<byte[], byte[]> dlq = new KafkaProducer<>(KafkaClients.producer(config, group + "-dlq"),
                new ByteArraySerializer(), new ByteArraySerializer());
        loop = new ConsumerLoop(consumer, kafka.decoder(), new GraphEventHandler(graph),
                new DeadLetterWriter(dlq, kafka.deadLetters, group, GraphProcessorMain.NAME, meters),
                ConsumerLoop.Settings.of(GraphProcessorMain.NAME, group, java.util.List.of(kafka.follows, kafka.boards)),
                Clock.systemUTC(), meters);
        thread = new Thread(loop, "graph-processor-test");
        thread.start();
    }

    public long applied() {
        return (long) meters.find("pinfeed.events.applied").counters().stream().mapToDouble(Counter::count).sum();
    }

    public long deadLettered() {
        return (long) meters.find("pinfeed.dead.letters").counters().stream().mapToDouble(Counter::count).sum();
    }

    public long records() {
        return applied() + deadLettered();
    }

    @Override
    public void close() throws InterruptedException {
        loop.close();
        thread.join(10_000);
    }
}
