package dev.pinfeed.operations.kafka;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.processorruntime.KafkaClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads ranges of offsets of topics without a consumer group (nobody's offsets move, nothing is committed):
 * committed records only, partition by partition in offset order. The operators' commands read their topics
 * through it (verify's topic history, the dead letters and the redrive log).
 */
public final class TopicRanges implements AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(15);

    private final KafkaConsumer<byte[], byte[]> consumer;

    private TopicRanges(KafkaConsumer<byte[], byte[]> consumer) {
        this.consumer = consumer;
    }

    public static TopicRanges open(PinfeedConfig config) {
        return new TopicRanges(new KafkaConsumer<>(KafkaClients.reader(config), new ByteArrayDeserializer(), new ByteArrayDeserializer()));
    }

    /** The partitions of {@code topic}; a topic that does not exist is an {@link IllegalStateException} naming it. */
    public List<TopicPartition> partitions(String topic) {
        List<PartitionInfo> infos = consumer.partitionsFor(topic, TIMEOUT);
        if (infos == null || infos.isEmpty()) throw new IllegalStateException("no topic " + topic);
        return infos.stream().map(p -> new TopicPartition(topic, p.partition())).sorted((a, b) -> Integer.compare(a.partition(), b.partition())).toList();
    }

    public boolean exists(String topic) {
        List<PartitionInfo> infos = consumer.partitionsFor(topic, TIMEOUT);
        return infos != null && !infos.isEmpty();
    }

    /** The first offset still held of each partition (retention and purges move it). */
    public Map<TopicPartition, Long> beginnings(List<TopicPartition> partitions) {
        return consumer.beginningOffsets(partitions, TIMEOUT);
    }

    /** The end of each partition as of now: after its last committed record. */
    public Map<TopicPartition, Long> ends(List<TopicPartition> partitions) {
        return consumer.endOffsets(partitions, TIMEOUT);
    }

    /** Per partition, the first offset whose record's timestamp is at or after {@code epochMillis}; its end when none is. */
    public Map<TopicPartition, Long> firstAtOrAfter(List<TopicPartition> partitions, long epochMillis) {
        Map<TopicPartition, Long> query = new HashMap<>();
        for (TopicPartition tp : partitions) query.put(tp, epochMillis);
        Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query, TIMEOUT);
        Map<TopicPartition, Long> ends = ends(partitions);
        Map<TopicPartition, Long> out = new HashMap<>();
        for (TopicPartition tp : partitions) {
            OffsetAndTimestamp o = found.get(tp);
            out.put(tp, o == null ? ends.get(tp) : o.offset());
        }
        return out;
    }

    /** Every record of {@code topics} from their beginning to their end as of the call. */
    public long readAll(List<String> topics, Consumer<ConsumerRecord<byte[], byte[]>> each) {
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : topics) partitions.addAll(partitions(topic));
        return read(beginnings(partitions), ends(partitions), each);
    }

    /**
     * Every record at offsets {@code from} (inclusive) to {@code to} (exclusive) of each partition {@code from}
     * names; an offset below a partition's beginning reads from its beginning. Returns how many.
     */
    public long read(Map<TopicPartition, Long> from, Map<TopicPartition, Long> to, Consumer<ConsumerRecord<byte[], byte[]>> each) {
        Map<TopicPartition, Long> beginnings = beginnings(new ArrayList<>(from.keySet()));
        Map<TopicPartition, Long> start = new HashMap<>();
        from.forEach((tp, offset) -> start.put(tp, Math.max(offset, beginnings.get(tp))));
        List<TopicPartition> open = new ArrayList<>(start.keySet().stream().filter(tp -> start.get(tp) < to.get(tp)).toList());
        long n = 0;
        consumer.assign(open);
        for (TopicPartition tp : open) consumer.seek(tp, start.get(tp));
        while (!open.isEmpty()) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                if (r.offset() < to.get(new TopicPartition(r.topic(), r.partition()))) {
                    each.accept(r);
                    n++;
                }
            }
            List<TopicPartition> done = open.stream().filter(tp -> consumer.position(tp) >= to.get(tp)).toList();
            if (!done.isEmpty()) {
                open.removeAll(done);
                consumer.assign(open);
            }
        }
        consumer.assign(List.of());
        return n;
    }

    @Override
    public void close() {
        consumer.close();
    }
}
