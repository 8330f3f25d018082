package dev.pinfeed.graphprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.events.BoardPinsReordered;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.events.UserFollowed;
import dev.pinfeed.eventsschema.AvroEventDeserializer;
import dev.pinfeed.eventsschema.AvroEventSerializer;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.InMemorySchemaRegistryClient;
import dev.pinfeed.followergraph.CommandOutcome;
import dev.pinfeed.followergraph.Edge;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.UserRelation;
import dev.pinfeed.followergraph.sharded.InMemoryGraphStore;
import dev.pinfeed.processorruntime.ConsumerLoop;
import dev.pinfeed.processorruntime.DeadLetterWriter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** The graph processor as its main assembles it (the runtime loop over GraphEventHandler), over Kafka's mock clients. */
class GraphProcessorTest {

    private static final String FOLLOWS = "follows";
    private static final String BOARDS = "boards";
    private static final String DLQ = "dead-letters";
    private static final Instant AT = Instant.ofEpochMilli(1_767_225_600_000L);

    private final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
    private final AvroEventSerializer serializer = new AvroEventSerializer(registry);

    @Test
    void appliesGraphEventsDeadLettersTheRestAndCommitsEverything() throws Exception {
        TopicPartition follows = new TopicPartition(FOLLOWS, 0);
        TopicPartition boards = new TopicPartition(BOARDS, 0);
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        records.add(record(follows, 0, new UserFollowed(1L, AT, 7L, 7L, 8L)));
        records.add(new ConsumerRecord<>(FOLLOWS, 0, 1, "7".getBytes(StandardCharsets.UTF_8), new byte[] {9, 9, 9, 9, 9, 9}));
        records.add(record(follows, 2, new UserFollowed(2L, AT, 7L, 7L, 7L)));
        records.add(record(follows, 3, new PinLiked(3L, AT, 7L, 7L, 99L)));
        records.add(record(follows, 4, EventRecords.of(new GraphCommand.FollowBoard(4, AT.toEpochMilli(), 7, 70, 9))));
        records.add(record(follows, 5, EventRecords.of(new GraphCommand.FollowBoard(5, AT.toEpochMilli(), 8, 70, 10))));
        records.add(record(boards, 0, new BoardPinsReordered(6L, AT, 9L, 70L, List.of(1L, 2L))));
        records.add(record(boards, 1, EventRecords.of(new GraphCommand.CreateBoard(7, AT.toEpochMilli(), 71, 9))));

        MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
        consumer.schedulePollTask(() -> {
            consumer.rebalance(List.of(follows, boards));
            consumer.updateBeginningOffsets(Map.of(follows, 0L, boards, 0L));
            records.forEach(consumer::addRecord);
            Map<TopicPartition, Long> ends = new HashMap<>(Map.of(follows, 0L, boards, 0L));
            records.forEach(r -> ends.merge(new TopicPartition(r.topic(), r.partition()), r.offset() + 1, Math::max));
            consumer.updateEndOffsets(ends);
        });
        MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        InMemoryGraphStore graph = new InMemoryGraphStore();
        // One outage only (the batch's first command, UserFollowed 7 → 8): a second could park a board claim behind the conflicting one
        // (claims are first-come, see follower-graph).
        AtomicInteger failures = new AtomicInteger(1);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        ConsumerLoop processor = new ConsumerLoop(consumer, new AvroEventDeserializer(registry),
                new GraphEventHandler(failingFirst(graph, failures)),
                new DeadLetterWriter(producer, DLQ, "group-1", GraphProcessorMain.NAME, meters),
                ConsumerLoop.Settings.of(GraphProcessorMain.NAME, "group-1", List.of(FOLLOWS, BOARDS)), Clock.systemUTC(), meters);
        Thread runner = new Thread(processor);
        runner.start();

        // A hang guard, not a timing: the loop runs on the real clock (the outage's retry is 100 ms away).
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(count(meters, "pinfeed.events.applied")).as("BoardPinsReordered changes nothing and counts as applied").isEqualTo(4);
            assertThat(count(meters, "pinfeed.dead.letters")).isEqualTo(4);
            assertThat(consumer.committed(Set.of(follows, boards))).containsEntry(follows, new org.apache.kafka.clients.consumer.OffsetAndMetadata(6))
                    .containsEntry(boards, new org.apache.kafka.clients.consumer.OffsetAndMetadata(2));
        });
        processor.close();
        runner.join(5_000);

        assertThat(failures.get()).as("a store outage is retried, not dead-lettered").isNegative();
        assertThat(graph.relation(7, 8)).isEqualTo(UserRelation.EXPLICIT);
        assertThat(graph.followsBoard(7, 70)).isTrue();
        assertThat(graph.boardsOf(9, null, 10).items()).extracting(Edge::id).containsExactly(71L);

        List<ProducerRecord<byte[], byte[]>> dead = producer.history();
        assertThat(dead).allSatisfy(r -> assertThat(r.topic()).isEqualTo(DLQ));
        assertThat(dead).extracting(r -> header(r, DeadLetters.HEADER_REASON)).containsExactly(
                DeadLetters.UNDECODABLE, DeadLetters.INVALID, DeadLetters.UNEXPECTED_EVENT,
                DeadLetters.INVALID);
        assertThat(dead).extracting(r -> header(r, DeadLetters.HEADER_SOURCE_OFFSET)).containsExactly("1", "2", "3", "5");
        assertThat(dead).allSatisfy(r -> {
            assertThat(header(r, DeadLetters.HEADER_SOURCE_TOPIC)).isEqualTo(FOLLOWS);
            assertThat(header(r, DeadLetters.HEADER_SOURCE_PARTITION)).isEqualTo("0");
            assertThat(header(r, DeadLetters.HEADER_CONSUMER)).isEqualTo("group-1");
            assertThat(header(r, DeadLetters.HEADER_ERROR)).isNotBlank();
        });
        assertThat(header(dead.get(3), DeadLetters.HEADER_ERROR)).contains("belongs to 9");
        assertThat(dead.get(0).value()).as("the original bytes").containsExactly(9, 9, 9, 9, 9, 9);
    }

    private ConsumerRecord<byte[], byte[]> record(TopicPartition tp, long offset, SpecificRecord event) {
        String topic = tp.topic();
        byte[] key = (event instanceof PinLiked || event instanceof BoardPinsReordered ? "k" : EventTopics.partitionKey(event))
                .getBytes(StandardCharsets.UTF_8);
        return new ConsumerRecord<>(topic, tp.partition(), offset, key, serializer.serialize(topic, event));
    }

    private static long count(SimpleMeterRegistry meters, String name) {
        return (long) meters.find(name).counters().stream().mapToDouble(io.micrometer.core.instrument.Counter::count).sum();
    }

    private static String header(ProducerRecord<byte[], byte[]> r, String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    /**
     * The store, except that in its first {@code failures} batches the first command meets an unreachable Redis (as
     * {@code applyAll} answers an instance outage: that command unavailable, the others applied).
     */
    @SuppressWarnings("unchecked")
    static GraphStore failingFirst(GraphStore store, AtomicInteger failures) {
        return (GraphStore) Proxy.newProxyInstance(GraphStore.class.getClassLoader(), new Class<?>[] {GraphStore.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("applyAll") && !((List<GraphCommand>) args[0]).isEmpty() && failures.getAndDecrement() > 0) {
                        List<GraphCommand> commands = (List<GraphCommand>) args[0];
                        List<CommandOutcome> out = new ArrayList<>();
                        out.add(new CommandOutcome(commands.get(0), new StoreUnavailableException("redis001", "connection refused")));
                        out.addAll(store.applyAll(commands.subList(1, commands.size())));
                        return out;
                    }
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
