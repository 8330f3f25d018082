package dev.pinfeed.operations.replay;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * What a replay asks of and does to Kafka, through Kafka's own Admin API only (no home-made offset store):
 * partitions and their log bounds (end offsets as {@code read_committed} readers see them), offsets by time,
 * a group's committed offsets, members and state, moving a group's offsets (which Kafka allows only while the
 * group is empty), removing static members left behind by stopped processes (what Kafka's own reset tools do
 * with {@code --force}), and a Kafka Streams application's internal topics.
 */
public final class KafkaGroups implements AutoCloseable {

    /** A group as Kafka describes it: its state and its members' static instance ids (null for dynamic members). */
    public record Membership(String state, List<String> members, List<String> staticIds) {
        public boolean empty() {
            return members.isEmpty();
        }
    }

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final Admin admin;

    public KafkaGroups(Admin admin) {
        this.admin = admin;
    }

    /** Every partition of {@code topics}, in topic then partition order; a missing topic is an {@link IllegalArgumentException}. */
    public List<TopicPartition> partitions(List<String> topics) {
        Map<String, TopicDescription> described;
        try {
            described = get(admin.describeTopics(topics).allTopicNames());
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException("cannot describe topics " + topics + ": " + e.getMessage(), e);
        }
        List<TopicPartition> out = new ArrayList<>();
        for (String topic : topics) {
            described.get(topic).partitions().forEach(p -> out.add(new TopicPartition(topic, p.partition())));
        }
        return out;
    }

    public Map<TopicPartition, Long> logStart(Collection<TopicPartition> partitions) {
        return offsets(partitions, OffsetSpec.earliest());
    }

    /** The log end a {@code read_committed} consumer reads to (the last stable offset). */
    public Map<TopicPartition, Long> logEnd(Collection<TopicPartition> partitions) {
        return offsets(partitions, OffsetSpec.latest());
    }

    /** The offset of the first record at or after {@code at} in each partition; its log end ({@code end}) where there is none. */
    public Map<TopicPartition, Long> offsetsAt(Collection<TopicPartition> partitions, Instant at, Map<TopicPartition, Long> end) {
        Map<TopicPartition, Long> found = offsets(partitions, OffsetSpec.forTimestamp(at.toEpochMilli()));
        Map<TopicPartition, Long> out = new HashMap<>();
        for (TopicPartition tp : partitions) {
            Long o = found.get(tp);
            out.put(tp, o == null || o < 0 ? end.get(tp) : o);
        }
        return out;
    }

    private Map<TopicPartition, Long> offsets(Collection<TopicPartition> partitions, OffsetSpec spec) {
        Map<TopicPartition, OffsetSpec> ask = partitions.stream().collect(Collectors.toMap(tp -> tp, tp -> spec));
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> answer =
                get(admin.listOffsets(ask, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all());
        Map<TopicPartition, Long> out = new HashMap<>();
        answer.forEach((tp, info) -> out.put(tp, info.offset()));
        return out;
    }

    /** Every consumer group the cluster knows, sorted. */
    public List<String> groups() {
        return get(admin.listConsumerGroups().all()).stream().map(g -> g.groupId()).sorted().toList();
    }

    /** The group's committed offsets (partitions it never committed are absent). */
    public Map<TopicPartition, Long> committed(String group) {
        Map<TopicPartition, OffsetAndMetadata> offsets = get(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
        Map<TopicPartition, Long> out = new HashMap<>();
        offsets.forEach((tp, o) -> {
            if (o != null) out.put(tp, o.offset());
        });
        return out;
    }

    public Membership membership(String group) {
        try {
            ConsumerGroupDescription d = get(admin.describeConsumerGroups(List.of(group)).describedGroups().get(group));
            List<String> members = new ArrayList<>();
            List<String> staticIds = new ArrayList<>();
            for (MemberDescription m : d.members()) {
                members.add(m.groupInstanceId().orElse(m.consumerId()) + "@" + m.host());
                m.groupInstanceId().ifPresent(staticIds::add);
            }
            GroupState state = d.groupState();
            return new Membership(state == null ? "unknown" : state.toString(), members, staticIds);
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) return new Membership("dead", List.of(), List.of());
            throw e;
        }
    }

    /**
     * Removes static members whose processes were stopped: a static member leaves its group only when its session
     * times out (a graceful close does not send a leave), and Kafka refuses to move the offsets of a non-empty group.
     */
    public void removeStaticMembers(String group, Collection<String> instanceIds) {
        if (instanceIds.isEmpty()) return;
        List<MemberToRemove> members = instanceIds.stream().map(MemberToRemove::new).toList();
        get(admin.removeMembersFromConsumerGroup(group, new RemoveMembersFromConsumerGroupOptions(members)).all());
    }

    /** Moves the group's offsets (Kafka refuses while the group has members). */
    public void moveOffsets(String group, Map<TopicPartition, Long> offsets) {
        Map<TopicPartition, OffsetAndMetadata> to = new HashMap<>();
        offsets.forEach((tp, o) -> to.put(tp, new OffsetAndMetadata(o)));
        get(admin.alterConsumerGroupOffsets(group, to).all());
    }

    /** A Kafka Streams application's internal topics: {@code <application id>-...-changelog} and {@code -repartition}. */
    public List<String> internalTopics(String applicationId) {
        Set<String> names = get(admin.listTopics().names());
        return names.stream().filter(n -> n.startsWith(applicationId + "-") && (n.endsWith("-changelog") || n.endsWith("-repartition")))
                .sorted().toList();
    }

    public void deleteTopics(Collection<String> topics) {
        if (!topics.isEmpty()) get(admin.deleteTopics(topics).all());
    }

    private static <T> T get(KafkaFuture<T> future) {
        try {
            return future.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Kafka", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka did not answer within " + TIMEOUT.toSeconds() + " s", e);
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
