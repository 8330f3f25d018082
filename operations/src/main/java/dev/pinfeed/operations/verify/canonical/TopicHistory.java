package dev.pinfeed.operations.verify.canonical;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.processorruntime.KafkaClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads whole topics from offset 0 to their end as of the start (no consumer group: nobody's offsets
 * move), partition by partition in offset order.
 */
public final class TopicHistory {

    private TopicHistory() {}

    /** Calls {@code each} with every record of {@code topics}; returns how many. */
    public static long read(PinfeedConfig config, List<String> topics, BiConsumer<String, ConsumerRecord<byte[], byte[]>> each) {
        return read(config, topics, (partition, end) -> end, each);
    }

    /**
     * {@link #read}, each partition only up to the offset {@code stop} returns for it (given its end as of
     * the start), exclusive: for instance where a consumer group has got to.
     */
    public static long read(PinfeedConfig config, List<String> topics, BiFunction<TopicPartition, Long, Long> stop,
                            BiConsumer<String, ConsumerRecord<byte[], byte[]>> each) {
        long n = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(KafkaClients.reader(config), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : topics) {
                List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(15));
                if (infos == null || infos.isEmpty()) throw new IllegalArgumentException("no topic " + topic);
                for (PartitionInfo p : infos) partitions.add(new TopicPartition(topic, p.partition()));
            }
            Map<TopicPartition, Long> end = new HashMap<>();
            consumer.endOffsets(partitions, Duration.ofSeconds(15)).forEach((tp, offset) -> end.put(tp, Math.min(offset, stop.apply(tp, offset))));
            List<TopicPartition> open = new ArrayList<>(partitions.stream().filter(tp -> end.get(tp) > 0).toList());
            consumer.assign(open);
            consumer.seekToBeginning(open);
            while (!open.isEmpty()) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.offset() < end.get(new TopicPartition(r.topic(), r.partition()))) {
                        each.accept(r.topic(), r);
                        n++;
                    }
                }
                List<TopicPartition> done = open.stream().filter(tp -> consumer.position(tp) >= end.get(tp)).toList();
                if (!done.isEmpty()) {
                    open.removeAll(done);
                    consumer.assign(open);
                }
            }
        }
        return n;
    }
}
