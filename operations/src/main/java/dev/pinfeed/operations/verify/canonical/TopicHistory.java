package dev.pinfeed.operations.verify.canonical;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.processorruntime.KafkaClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads topics, partition by partition in offset order, with no consumer group (nobody's offsets move): from
 * the beginning, or from where an earlier read stopped, to the end offsets as of the start of the read.
 */
public final class TopicHistory {

    private TopicHistory() {}

    /** Calls {@code each} with every record of {@code topics} from offset 0; returns the end offsets it read to. */
    public static Map<TopicPartition, Long> read(PinfeedConfig config, List<String> topics, BiConsumer<String, ConsumerRecord<byte[], byte[]>> each) {
        return read(config, topics, Map.of(), each);
    }

    /**
     * {@link #read} from {@code from} (a partition not in it: from its beginning) to the end offsets as of now;
     * returns those end offsets (the {@code from} of a later read that continues this one).
     */
    public static Map<TopicPartition, Long> read(PinfeedConfig config, List<String> topics, Map<TopicPartition, Long> from,
                                                 BiConsumer<String, ConsumerRecord<byte[], byte[]>> each) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(KafkaClients.reader(config), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : topics) {
                List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(15));
                if (infos == null || infos.isEmpty()) throw new IllegalArgumentException("no topic " + topic);
                for (PartitionInfo p : infos) partitions.add(new TopicPartition(topic, p.partition()));
            }
            Map<TopicPartition, Long> end = new HashMap<>(consumer.endOffsets(partitions, Duration.ofSeconds(15)));
            List<TopicPartition> open = new ArrayList<>(partitions.stream().filter(tp -> end.get(tp) > from.getOrDefault(tp, 0L)).toList());
            consumer.assign(open);
            for (TopicPartition tp : open) {
                if (from.containsKey(tp)) consumer.seek(tp, from.get(tp)); else consumer.seekToBeginning(List.of(tp));
            }
            while (!open.isEmpty()) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.offset() < end.get(new TopicPartition(r.topic(), r.partition()))) each.accept(r.topic(), r);
                }
                List<TopicPartition> done = open.stream().filter(tp -> consumer.position(tp) >= end.get(tp)).toList();
                if (!done.isEmpty()) {
                    open.removeAll(done);
                    consumer.assign(open);
                }
            }
            return end;
        }
    }
}
