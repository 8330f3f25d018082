package dev.pinfeed.operations.verify.graph;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.eventsschema.AvroEventDeserializer;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.graphprocessor.GraphRebuild;
import dev.pinfeed.operations.replay.KafkaGroups;
import dev.pinfeed.processorruntime.KafkaClients;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;

/**
 * The graph's topics as the verification reads them: their end offsets, a range of records replayed into
 * a store (the processor's own handler, {@link GraphRebuild}), and the offsets the graph processor's
 * consumer group has committed (everything before them applied).
 */
final class GraphTopics implements AutoCloseable {

    private final PinfeedConfig config;
    private final List<String> topics;
    private final String group;
    private final AvroEventDeserializer decoder;
    private final KafkaGroups kafka;

    GraphTopics(PinfeedConfig config, List<String> topics, String group) {
        this.config = config;
        this.topics = List.copyOf(topics);
        this.group = group;
        this.decoder = AvroEventDeserializer.from(config);
        this.kafka = new KafkaGroups(Admin.create(KafkaClients.admin(config)));
    }

    List<String> topics() {
        return topics;
    }

    String group() {
        return group;
    }

    Map<TopicPartition, Long> endOffsets() {
        return GraphRebuild.endOffsets(config, topics);
    }

    /** One reader thread: the oracle is in memory, and the owner claims of conflicting events follow one order. */
    GraphRebuild.Result replay(Map<TopicPartition, Long> from, Map<TopicPartition, Long> to, GraphStore target, GraphRebuild.Listener listener)
            throws InterruptedException {
        return GraphRebuild.replay(config, from, to, decoder, target, 1, listener);
    }

    /** The processor's committed offsets on the graph topics (a partition it never committed is absent). */
    Map<TopicPartition, Long> committed() {
        Map<TopicPartition, Long> out = new TreeMap<>(Comparator.comparing(TopicPartition::toString));
        kafka.committed(group).forEach((tp, o) -> {
            if (topics.contains(tp.topic())) out.put(tp, o);
        });
        return out;
    }

    @Override
    public void close() {
        kafka.close();
    }
}
