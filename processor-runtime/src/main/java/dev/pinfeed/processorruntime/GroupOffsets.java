package dev.pinfeed.processorruntime;

import java.util.Collection;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/** What {@link UpstreamHorizon} asks the brokers: how far a consumer group has committed, and where partitions end. */
public interface GroupOffsets {

    /** The group's committed offset in every partition it committed in; an unknown group has none. */
    Map<TopicPartition, Long> committed(String group);

    /** The last stable offset of each partition (what a read_committed consumer can read up to); absent when its topic is gone. */
    Map<TopicPartition, Long> ends(Collection<TopicPartition> partitions);
}
