package dev.pinfeed.operations.verify.canonical;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.operations.kafka.TopicRanges;
import java.util.List;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Reads whole topics from offset 0 to their end as of the start (no consumer group: nobody's offsets
 * move), partition by partition in offset order.
 */
public final class TopicHistory {

    private TopicHistory() {}

    /** Calls {@code each} with every record of {@code topics}; returns how many. */
    public static long read(PinfeedConfig config, List<String> topics, BiConsumer<String, ConsumerRecord<byte[], byte[]>> each) {
        try (TopicRanges ranges = TopicRanges.open(config)) {
            for (String topic : topics) if (!ranges.exists(topic)) throw new IllegalArgumentException("no topic " + topic);
            return ranges.readAll(topics, r -> each.accept(r.topic(), r));
        }
    }
}
