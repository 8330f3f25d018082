package dev.pinfeed.operations.verify.canonical;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.operations.kafka.TopicRanges;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads topics, partition by partition in offset order, with no consumer group (nobody's offsets move): from
 * the beginning, or from where an earlier read stopped, to the end offsets as of the start of the read.
 */
public final class TopicHistory {

    private TopicHistory() {}

    /** Calls {@code each} with every record of {@code topics} from their beginning; returns the end offsets it read to. */
    public static Map<TopicPartition, Long> read(PinfeedConfig config, List<String> topics, BiConsumer<String, ConsumerRecord<byte[], byte[]>> each) {
        return read(config, topics, Map.of(), each);
    }

    /**
     * {@link #read} from {@code from} (a partition not in it: from its beginning) to the end offsets as of now;
     * returns those end offsets (the {@code from} of a later read that continues this one).
     */
    public static Map<TopicPartition, Long> read(PinfeedConfig config, List<String> topics, Map<TopicPartition, Long> from,
                                                 BiConsumer<String, ConsumerRecord<byte[], byte[]>> each) {
        try (TopicRanges ranges = TopicRanges.open(config)) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : topics) {
                if (!ranges.exists(topic)) throw new IllegalArgumentException("no topic " + topic);
                partitions.addAll(ranges.partitions(topic));
            }
            Map<TopicPartition, Long> end = ranges.ends(partitions);
            Map<TopicPartition, Long> start = new HashMap<>();
            for (TopicPartition tp : partitions) start.put(tp, from.getOrDefault(tp, 0L));
            ranges.read(start, end, r -> each.accept(r.topic(), r));
            return end;
        }
    }
}
