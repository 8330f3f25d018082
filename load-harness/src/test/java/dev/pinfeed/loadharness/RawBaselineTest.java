package dev.pinfeed.loadharness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class RawBaselineTest {

    /** A producer whose metadata lookups time out {@code misses} times per topic, each costing a second of the clock. */
    private static final class SlowMetadata extends MockProducer<String, byte[]> {
        final List<String> lookups = new ArrayList<>();
        final AtomicLong clock;
        final int misses;

        SlowMetadata(AtomicLong clock, int misses) {
            super(true, null, new StringSerializer(), new ByteArraySerializer());
            this.clock = clock;
            this.misses = misses;
        }

        @Override
        public synchronized List<PartitionInfo> partitionsFor(String topic) {
            lookups.add(topic);
            if (lookups.stream().filter(topic::equals).count() <= misses) {
                clock.addAndGet(Duration.ofSeconds(1).toNanos());
                throw new TimeoutException("Topic " + topic + " not present in metadata after 1000 ms.");
            }
            return List.of();
        }
    }

    @Test
    void aTopicCreatedAMomentBeforeIsWaitedForUntilItsMetadataArrives() {
        AtomicLong clock = new AtomicLong();
        SlowMetadata producer = new SlowMetadata(clock, 3);

        RawBaseline.awaitMetadata(producer, Duration.ofSeconds(30), clock::get, "likes", "pins");

        assertThat(producer.lookups).containsExactly("likes", "likes", "likes", "likes", "pins", "pins", "pins", "pins");
    }

    @Test
    void aTopicStillUnknownAfterTheWaitFailsTheRun() {
        AtomicLong clock = new AtomicLong();
        SlowMetadata producer = new SlowMetadata(clock, Integer.MAX_VALUE);

        assertThatThrownBy(() -> RawBaseline.awaitMetadata(producer, Duration.ofSeconds(30), clock::get, "likes"))
                .isInstanceOf(TimeoutException.class).hasMessageContaining("likes");
        assertThat(producer.lookups).hasSize(30);
    }
}
