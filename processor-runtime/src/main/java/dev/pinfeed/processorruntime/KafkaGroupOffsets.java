package dev.pinfeed.processorruntime;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/** {@link GroupOffsets} through a Kafka admin client; each call waits at most {@code timeout}. */
public final class KafkaGroupOffsets implements GroupOffsets, AutoCloseable {

    private final Admin admin;
    private final Duration timeout;

    public KafkaGroupOffsets(Admin admin, Duration timeout) {
        this.admin = admin;
        this.timeout = timeout;
    }

    @Override
    public Map<TopicPartition, Long> committed(String group) {
        Map<TopicPartition, Long> committed = new HashMap<>();
        get(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()).forEach((tp, o) -> {
            if (o != null) committed.put(tp, o.offset());
        });
        return committed;
    }

    /** Partitions of topics that are gone are left out before asking (the admin client logs an error for each one asked). */
    @Override
    public Map<TopicPartition, Long> ends(Collection<TopicPartition> partitions) {
        Set<String> topics = get(admin.listTopics(new ListTopicsOptions().listInternal(true)).names());
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        partitions.stream().filter(tp -> topics.contains(tp.topic())).forEach(tp -> latest.put(tp, OffsetSpec.latest()));
        ListOffsetsResult result = admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED));
        Map<TopicPartition, Long> ends = new HashMap<>();
        for (TopicPartition tp : latest.keySet()) {
            try {
                ends.put(tp, get(result.partitionResult(tp)).offset());
            } catch (IllegalStateException e) {
                // deleted between the two calls
                if (!(e.getCause() instanceof ExecutionException ee && ee.getCause() instanceof UnknownTopicOrPartitionException)) throw e;
            }
        }
        return ends;
    }

    private <T> T get(KafkaFuture<T> future) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted asking the brokers", e);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the brokers did not answer: " + (e.getCause() == null ? e : e.getCause()).getMessage(), e);
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
