package dev.pinfeed.operations.verify.canonical;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.operations.kafka.TopicRanges;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads topics, partition by partition in offset order, with no consumer group (nobody's offsets move): from
 * the beginning, or from where an earlier read stopped, to the end offsets as of the start of the read (or
 * to an offset of the caller's choosing per partition, such as where a consumer group has got to).
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
        Map<TopicPartition, Long> end = new HashMap<>();
        readRange(config, topics, from, (tp, e) -> e, end, each);
        return end;
    }

    /**
     * {@link #read} from the beginning, each partition only up to the offset {@code stop} returns for it (given its
     * end as of the start), exclusive; returns how many records were read.
     */
    public static long readUpTo(PinfeedConfig config, List<String> topics, BiFunction<TopicPartition, Long, Long> stop,
                                BiConsumer<String, ConsumerRecord<byte[], byte[]>> each) {
        return readRange(config, topics, Map.of(), stop, new HashMap<>(), each);
    }

    private static long readRange(PinfeedConfig config, List<String> topics, Map<TopicPartition, Long> from,
                                  BiFunction<TopicPartition, Long, Long> stop, Map<TopicPartition, Long> end,
                                  BiConsumer<String, ConsumerRecord<byte[], byte[]>> each) {
        try (TopicRanges ranges = TopicRanges.open(config)) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : topics) {
                if (!ranges.exists(topic)) throw new IllegalArgumentException("no topic " + topic);
                partitions.addAll(ranges.partitions(topic));
            }
            ranges.ends(partitions).forEach((tp, e) -> end.put(tp, Math.min(e, stop.apply(tp, e))));
            Map<TopicPartition, Long> start = new HashMap<>();
            for (TopicPartition tp : partitions) start.put(tp, from.getOrDefault(tp, 0L));
            return ranges.read(start, end, r -> each.accept(r.topic(), r));
        }
    }
}
