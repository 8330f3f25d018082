package dev.pinfeed.operations.replay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;

/** The {@link PartitionPlan}s of a view's replay, as Kafka stands now: every partition of every group of the view. */
final class ReplayPlanner {

    private final KafkaGroups kafka;

    ReplayPlanner(KafkaGroups kafka) {
        this.kafka = kafka;
    }

    /** {@code to} empty: to the log end, the groups moved back to {@code from}; else the range {@code [from, to)}. */
    List<PartitionPlan> plan(ReplayView view, Position from, Optional<Position> to) {
        List<PartitionPlan> out = new ArrayList<>();
        for (ReplayView.Group g : view.groups()) {
            List<TopicPartition> partitions = kafka.partitions(g.topics());
            Map<TopicPartition, Long> start = kafka.logStart(partitions);
            Map<TopicPartition, Long> end = kafka.logEnd(partitions);
            Map<TopicPartition, Long> committed = kafka.committed(g.id());
            Map<TopicPartition, Long> a = resolve(from, partitions, start, end);
            Map<TopicPartition, Long> b = to.map(p -> resolve(p, partitions, start, end)).orElse(Map.of());
            for (TopicPartition tp : partitions) {
                out.add(PartitionPlan.of(g.id(), tp.topic(), tp.partition(), start.get(tp), end.get(tp), committed.getOrDefault(tp, -1L),
                        a.get(tp), b.getOrDefault(tp, -1L)));
            }
        }
        return out;
    }

    private Map<TopicPartition, Long> resolve(Position p, List<TopicPartition> partitions, Map<TopicPartition, Long> start,
                                              Map<TopicPartition, Long> end) {
        Map<TopicPartition, Long> out = new HashMap<>();
        if (p instanceof Position.Offset o) {
            partitions.forEach(tp -> out.put(tp, o.offset()));
        } else if (p instanceof Position.Time t) {
            out.putAll(kafka.offsetsAt(partitions, t.at(), end));
        } else {
            partitions.forEach(tp -> out.put(tp, start.get(tp)));
        }
        return out;
    }
}
