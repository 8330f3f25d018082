package dev.pinfeed.processorruntime;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.TopicPartition;

/** The unit tests' fake held to the contract {@link KafkaGroupOffsetsIT} holds the brokers to. */
class FakeGroupOffsetsTest extends GroupOffsetsContract {

    private final FakeGroupOffsets fake = new FakeGroupOffsets();
    private final AtomicInteger names = new AtomicInteger();

    @Override
    protected GroupOffsets offsets() {
        return fake;
    }

    @Override
    protected String newTopic(int partitions) {
        String topic = "topic-" + names.incrementAndGet();
        fake.createTopic(topic, partitions);
        return topic;
    }

    @Override
    protected String newGroup() {
        return "group-" + names.incrementAndGet();
    }

    @Override
    protected void append(TopicPartition tp, int records) {
        fake.append(tp, records);
    }

    @Override
    protected void commit(String group, TopicPartition tp, long offset) {
        fake.commit(group, tp, offset);
    }
}
