package dev.pinfeed.processorruntime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** What {@link UpstreamHorizon} relies on from {@link GroupOffsets}; run against the brokers and against the unit tests' fake. */
abstract class GroupOffsetsContract {

    protected abstract GroupOffsets offsets();

    /** A topic of {@code partitions} partitions no other test uses. */
    protected abstract String newTopic(int partitions) throws Exception;

    /** A group name no other test uses. */
    protected abstract String newGroup();

    protected abstract void append(TopicPartition tp, int records) throws Exception;

    protected abstract void commit(String group, TopicPartition tp, long offset) throws Exception;

    @Test
    void aGroupThatNeverCommittedHasNoOffsets() {
        assertThat(offsets().committed(newGroup())).isEmpty();
    }

    @Test
    void committedAnswersEachPartitionTheGroupCommittedInAndNoOther() throws Exception {
        String topic = newTopic(2);
        TopicPartition p0 = new TopicPartition(topic, 0);
        TopicPartition p1 = new TopicPartition(topic, 1);
        append(p0, 3);
        append(p1, 2);
        String group = newGroup();
        commit(group, p0, 2);
        assertThat(offsets().committed(group)).isEqualTo(Map.of(p0, 2L));
        commit(group, p1, 2);
        commit(group, p0, 3);
        assertThat(offsets().committed(group)).isEqualTo(Map.of(p0, 3L, p1, 2L));
    }

    @Test
    void endsAnswerWhereEachPartitionEndsAndLeaveOutTopicsThatDoNotExist() throws Exception {
        String topic = newTopic(3);
        TopicPartition p0 = new TopicPartition(topic, 0);
        TopicPartition p1 = new TopicPartition(topic, 1);
        TopicPartition p2 = new TopicPartition(topic, 2);
        append(p0, 3);
        append(p1, 1);
        TopicPartition gone = new TopicPartition(topic + "-never-created", 0);
        assertThat(offsets().ends(List.of(p0, p1, p2, gone))).isEqualTo(Map.of(p0, 3L, p1, 1L, p2, 0L));
        append(p2, 2);
        assertThat(offsets().ends(List.of(p2))).isEqualTo(Map.of(p2, 2L));
    }
}
