package dev.pinfeed.processorruntime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class UpstreamHorizonTest {

    private final ConsumerLoopTest.MutableClock clock = new ConsumerLoopTest.MutableClock();
    private final FakeGroupOffsets offsets = new FakeGroupOffsets();
    private final TopicPartition pins = new TopicPartition("pins", 0);
    private final TopicPartition follows = new TopicPartition("follows", 0);
    private final UpstreamHorizon horizon = new UpstreamHorizon(List.of("materializer", "graph"), offsets, clock);

    UpstreamHorizonTest() {
        offsets.createTopic("pins", 1);
        offsets.createTopic("follows", 1);
    }

    @Test
    void theHorizonMovesToASnapshotsTimeOnceEveryGroupHasCommittedUpToWhereItsPartitionsEndedThen() {
        offsets.append(pins, 5);
        offsets.commit("materializer", pins, 0);
        offsets.append(follows, 3);
        offsets.commit("graph", follows, 3);
        long t0 = clock.millis();
        assertThat(horizon.readAllUntil()).isEqualTo(Long.MIN_VALUE);
        horizon.refresh();
        assertThat(horizon.readAllUntil()).as("the materializer has five pins to apply").isEqualTo(Long.MIN_VALUE);

        clock.advance(Duration.ofSeconds(2));
        offsets.append(pins, 3); // written after the snapshot: not waited for
        offsets.commit("materializer", pins, 5);
        horizon.refresh();
        assertThat(horizon.readAllUntil()).isEqualTo(t0);

        clock.advance(Duration.ofSeconds(2));
        horizon.refresh();
        assertThat(horizon.readAllUntil()).as("the snapshot of t0 + 2 s waits for the three pins after").isEqualTo(t0);
        offsets.commit("materializer", pins, 8);
        offsets.append(pins, 1);
        clock.advance(Duration.ofSeconds(2));
        horizon.refresh();
        assertThat(horizon.readAllUntil()).isEqualTo(t0 + 2_000);
        offsets.commit("materializer", pins, 9);
        clock.advance(Duration.ofSeconds(2));
        horizon.refresh();
        assertThat(horizon.readAllUntil()).as("nothing left unapplied: caught up now").isEqualTo(t0 + 8_000);
    }

    @Test
    void anyGroupBehindHoldsTheHorizonBack() {
        offsets.append(pins, 2);
        offsets.commit("materializer", pins, 2);
        offsets.append(follows, 4);
        offsets.commit("graph", follows, 1);
        horizon.readAllUntil();
        horizon.refresh();
        clock.advance(Duration.ofSeconds(2));
        horizon.refresh();
        assertThat(horizon.readAllUntil()).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void aGroupThatHasCommittedNothingOrWhoseOffsetsWereDeletedHoldsNothingBack() {
        offsets.append(pins, 2);
        offsets.append(follows, 4);
        offsets.commit("graph", follows, 1);
        long t0 = clock.millis();
        horizon.readAllUntil();
        horizon.refresh();
        assertThat(horizon.readAllUntil()).as("the graph processor is behind").isEqualTo(Long.MIN_VALUE);
        offsets.forget("graph"); // an operator reset its offsets
        clock.advance(Duration.ofSeconds(2));
        horizon.refresh();
        assertThat(horizon.readAllUntil()).as("neither group holds it back: caught up now").isEqualTo(t0 + 2_000);
    }

    @Test
    void theBrokersAreAskedNothingWhileNobodyAsksForTheHorizon() {
        offsets.append(pins, 2);
        offsets.commit("materializer", pins, 1);
        horizon.refresh();
        assertThat(offsets.committedCalls + offsets.endsCalls).isZero();

        horizon.readAllUntil();
        horizon.refresh();
        assertThat(offsets.committedCalls).isPositive();
        clock.advance(Duration.ofMillis(UpstreamHorizon.IDLE_MS + 1));
        int calls = offsets.committedCalls + offsets.endsCalls;
        horizon.refresh();
        assertThat(offsets.committedCalls + offsets.endsCalls).isEqualTo(calls);
    }
}
