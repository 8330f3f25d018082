package dev.pinfeed.processorruntime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.events.UserCreated;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Records written in a Kafka transaction (Kafka Streams' exactly-once output, a dead-letter redrive) end with a commit
 * marker poll never hands out: the loop's committed offset still reaches the log end, in a group and in a bounded run.
 */
@ExtendWith(StackExtension.class)
class ConsumerLoopControlRecordsIT {

    private final Deserializer<SpecificRecord> decoder = (topic, data) -> new UserCreated(1L, Instant.EPOCH, 1L, 0L, "u", null);

    @Test
    void aGroupAndABoundedRunBothReachTheLogEndPastTheCommitMarker(TestStack stack) throws Exception {
        String topic = stack.uniqueTopic("control-records");
        stack.createTopics(Map.of(topic, 1));
        TopicPartition tp = new TopicPartition(topic, 0);
        Properties p = KafkaClients.producer(stack.config(), "control-records-it");
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic);
        // A freshly started broker may take seconds to set up its transaction coordinator; ingest's 1 s is for requests.
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "30000");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, 0, null, new byte[] {1}));
            producer.send(new ProducerRecord<>(topic, 0, null, new byte[] {2}));
            producer.commitTransaction();
        }
        long end;
        try (Admin admin = Admin.create(KafkaClients.admin(stack.config()))) {
            end = admin.listOffsets(Map.of(tp, OffsetSpec.latest())).all().get().get(tp).offset();
        }
        assertThat(end).as("two records and the commit marker").isEqualTo(3);

        dlq = new KafkaProducer<>(KafkaClients.producer(stack.config(), "control-records-dlq"), new ByteArraySerializer(), new ByteArraySerializer());
        String group = stack.uniqueTopic("control-records-group");
        AtomicInteger applied = new AtomicInteger();
        ConsumerLoop loop = loop(stack, group, ConsumerLoop.Settings.of("test", group, List.of(topic)), applied);
        Thread thread = new Thread(loop, "control-records-it");
        thread.start();
        try (Admin admin = Admin.create(KafkaClients.admin(stack.config()))) {
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                var committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().get(tp);
                assertThat(committed).isNotNull();
                assertThat(committed.offset()).isEqualTo(end);
            });
        } finally {
            loop.close();
            thread.join(10_000);
        }
        assertThat(applied.get()).isEqualTo(2);

        AtomicInteger boundedApplied = new AtomicInteger();
        ConsumerLoop bounded = loop(stack, null, ConsumerLoop.Settings.of("test", "none", List.of(topic)).bounded(Map.of(tp, new ConsumerLoop.Range(0, end))), boundedApplied);
        Thread boundedThread = new Thread(bounded, "control-records-it-bounded");
        boundedThread.start();
        boundedThread.join(60_000);
        assertThat(bounded.finished()).as("the bounded run ended at the range's end").isTrue();
        assertThat(bounded.boundedSettled()).isEqualTo(end);
        assertThat(boundedApplied.get()).isEqualTo(2);
        dlq.close();
    }

    private KafkaProducer<byte[], byte[]> dlq;

    private ConsumerLoop loop(TestStack stack, String group, ConsumerLoop.Settings settings, AtomicInteger applied) {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Properties c = group == null ? KafkaClients.reader(stack.config()) : KafkaClients.consumer(stack.config(), group);
        return new ConsumerLoop(new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer()), decoder,
                (records, outcomes) -> applied.addAndGet(records.size()),
                new DeadLetterWriter(dlq, DeadLetters.TOPIC, "test", "test", meters), settings, Clock.systemUTC(), meters);
    }
}
