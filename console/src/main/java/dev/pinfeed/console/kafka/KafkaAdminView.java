package dev.pinfeed.console.kafka;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.console.pipeline.PipelineSources.ConsumerGroupLag;
import dev.pinfeed.console.pipeline.PipelineSources.KafkaView;
import dev.pinfeed.processorruntime.KafkaClients;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;

/**
 * The Kafka cluster through one Admin client ({@link KafkaClients#admin}: the deployment's credentials): the brokers,
 * and every consumer group's lag, the distance from its committed offsets to the log end a {@code read_committed}
 * consumer reads to (the last stable offset), summed over the partitions it committed. A partition whose end cannot be
 * read (its topic deleted since) is left out rather than failing every group.
 */
public final class KafkaAdminView implements KafkaView, AutoCloseable {

    /** Longer than a probe's deadline: an answer that comes late is still shown by the next sample. */
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

    private final Admin admin;

    public KafkaAdminView(PinfeedConfig config) {
        this.admin = Admin.create(KafkaClients.admin(config));
    }

    @Override
    public String cluster() throws Exception {
        Collection<Node> nodes = get(admin.describeCluster().nodes());
        return nodes.size() + (nodes.size() == 1 ? " broker" : " brokers");
    }

    @Override
    public Map<String, ConsumerGroupLag> consumerLag() throws Exception {
        Collection<GroupListing> groups = get(admin.listGroups(ListGroupsOptions.forConsumerGroups()).all());
        if (groups.isEmpty()) return Map.of();
        Map<String, ListConsumerGroupOffsetsSpec> specs = new LinkedHashMap<>();
        for (GroupListing g : groups) specs.put(g.groupId(), new ListConsumerGroupOffsetsSpec());
        ListConsumerGroupOffsetsResult offsets = admin.listConsumerGroupOffsets(specs);
        Map<String, Map<TopicPartition, Long>> committed = new LinkedHashMap<>();
        Set<TopicPartition> partitions = new HashSet<>();
        for (String group : specs.keySet()) {
            Map<TopicPartition, Long> byPartition = new HashMap<>();
            try {
                get(offsets.partitionsToOffsetAndMetadata(group)).forEach((tp, o) -> {
                    if (o != null) byPartition.put(tp, o.offset());
                });
            } catch (ExecutionException groupGone) {
                continue; // deleted between the listing and this call
            }
            committed.put(group, byPartition);
            partitions.addAll(byPartition.keySet());
        }
        Map<TopicPartition, Long> ends = logEnds(partitions);
        Map<String, ConsumerGroupLag> lag = new LinkedHashMap<>();
        committed.forEach((group, byPartition) -> {
            long sum = 0;
            for (Map.Entry<TopicPartition, Long> e : byPartition.entrySet()) {
                Long end = ends.get(e.getKey());
                if (end != null) sum += Math.max(0, end - e.getValue());
            }
            lag.put(group, new ConsumerGroupLag(sum, byPartition.size()));
        });
        return lag;
    }

    private Map<TopicPartition, Long> logEnds(Set<TopicPartition> partitions) throws Exception {
        Map<TopicPartition, OffsetSpec> ask = new HashMap<>();
        for (TopicPartition tp : partitions) ask.put(tp, OffsetSpec.latest());
        ListOffsetsResult result = admin.listOffsets(ask, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED));
        Map<TopicPartition, Long> ends = new HashMap<>();
        for (TopicPartition tp : partitions) {
            try {
                ends.put(tp, get(result.partitionResult(tp)).offset());
            } catch (ExecutionException unknownPartition) {
                // Its topic is gone: no lag to count there.
            }
        }
        return ends;
    }

    private static <T> T get(KafkaFuture<T> future) throws Exception {
        return future.get(CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(2));
    }
}
