package dev.pinfeed.processorruntime;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/** {@link GroupOffsets} in memory, for unit tests ({@link FakeGroupOffsetsTest} holds it to the contract). */
final class FakeGroupOffsets implements GroupOffsets {

    private final Map<String, Integer> topics = new HashMap<>();
    private final Map<TopicPartition, Long> ends = new HashMap<>();
    private final Map<String, Map<TopicPartition, Long>> committed = new HashMap<>();
    int committedCalls;
    int endsCalls;

    void createTopic(String topic, int partitions) {
        topics.put(topic, partitions);
        for (int p = 0; p < partitions; p++) ends.put(new TopicPartition(topic, p), 0L);
    }

    void append(TopicPartition tp, int records) {
        ends.merge(tp, (long) records, Long::sum);
    }

    void commit(String group, TopicPartition tp, long offset) {
        committed.computeIfAbsent(group, g -> new HashMap<>()).put(tp, offset);
    }

    void forget(String group) {
        committed.remove(group);
    }

    @Override
    public Map<TopicPartition, Long> committed(String group) {
        committedCalls++;
        return Map.copyOf(committed.getOrDefault(group, Map.of()));
    }

    @Override
    public Map<TopicPartition, Long> ends(Collection<TopicPartition> partitions) {
        endsCalls++;
        Map<TopicPartition, Long> answer = new HashMap<>();
        for (TopicPartition tp : partitions) {
            Long end = ends.get(tp);
            if (end != null) answer.put(tp, end);
        }
        return answer;
    }
}
