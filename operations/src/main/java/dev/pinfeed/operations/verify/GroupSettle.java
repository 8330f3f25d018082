package dev.pinfeed.operations.verify;

import dev.pinfeed.operations.replay.KafkaGroups;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * Waiting for a view's processor to have applied what a verification read: its consumer group committed at or
 * past the end offsets the oracle was read to. A verification that compared before that would report events still
 * in flight as differences.
 */
public final class GroupSettle {

    /** SETTLED: the group passed the offsets; BEHIND: not within the timeout; NO_GROUP: nobody consumes these topics. */
    public enum Result { SETTLED, BEHIND, NO_GROUP }

    private GroupSettle() {}

    public static Result await(KafkaGroups kafka, String group, Map<TopicPartition, Long> end, Duration timeout, Clock clock)
            throws InterruptedException {
        long deadline = clock.millis() + timeout.toMillis();
        while (true) {
            Map<TopicPartition, Long> committed = kafka.committed(group);
            if (committed.isEmpty()) return Result.NO_GROUP;
            boolean passed = end.entrySet().stream().allMatch(e -> e.getValue() == 0 || committed.getOrDefault(e.getKey(), -1L) >= e.getValue());
            if (passed) return Result.SETTLED;
            if (clock.millis() > deadline) return Result.BEHIND;
            Thread.sleep(250);
        }
    }
}
