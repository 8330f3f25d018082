package dev.pinfeed.processorruntime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link KafkaGroupOffsets} against the shared stack's brokers. */
@ExtendWith(StackExtension.class)
class KafkaGroupOffsetsIT extends GroupOffsetsContract {

    private TestStack stack;
    private Admin admin;
    private KafkaGroupOffsets offsets;
    private KafkaProducer<byte[], byte[]> producer;

    @BeforeEach
    void open(TestStack stack) {
        this.stack = stack;
        admin = Admin.create(KafkaClients.admin(stack.config()));
        offsets = new KafkaGroupOffsets(Admin.create(KafkaClients.admin(stack.config())), Duration.ofSeconds(15));
        producer = new KafkaProducer<>(KafkaClients.producer(stack.config(), "group-offsets-it"), new ByteArraySerializer(), new ByteArraySerializer());
    }

    @AfterEach
    void close() {
        producer.close();
        offsets.close();
        admin.close();
    }

    /** The horizon on its own thread over the brokers: held back by a group behind, moved on once it commits past. */
    @Test
    void anUpstreamHorizonWaitsForAGroupBehindThenPassesWhenItCatchesUp() throws Exception {
        String topic = newTopic(2);
        TopicPartition p0 = new TopicPartition(topic, 0);
        TopicPartition p1 = new TopicPartition(topic, 1);
        append(p0, 4);
        append(p1, 2);
        String behind = newGroup();
        commit(behind, p0, 4);
        commit(behind, p1, 1);
        try (UpstreamHorizon horizon = new UpstreamHorizon(List.of(behind, newGroup()), offsets, Clock.systemUTC()).start(100)) {
            long asked = System.currentTimeMillis();
            horizon.readAllUntil();
            Thread.sleep(1_000); // ten turns
            assertThat(horizon.readAllUntil()).as("one record of p1 not applied").isEqualTo(Long.MIN_VALUE);
            commit(behind, p1, 2);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(horizon.readAllUntil()).isGreaterThanOrEqualTo(asked));
        }
    }

    @Override
    protected GroupOffsets offsets() {
        return offsets;
    }

    @Override
    protected String newTopic(int partitions) {
        String topic = stack.uniqueTopic("group-offsets");
        stack.createTopics(Map.of(topic, partitions));
        return topic;
    }

    @Override
    protected String newGroup() {
        return stack.uniqueName("group-offsets-group");
    }

    @Override
    protected void append(TopicPartition tp, int records) throws Exception {
        for (int i = 0; i < records; i++) producer.send(new ProducerRecord<>(tp.topic(), tp.partition(), null, new byte[] {(byte) i})).get();
    }

    @Override
    protected void commit(String group, TopicPartition tp, long offset) throws Exception {
        admin.alterConsumerGroupOffsets(group, Map.of(tp, new OffsetAndMetadata(offset))).all().get();
    }
}
