package dev.pinfeed.ingestapi.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LogReachabilityTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final LogReachability reachability = new LogReachability(1_000, now::get);

    private void advanceMillis(long ms) {
        now.addAndGet(ms * 1_000_000L);
    }

    @Test
    void anIdleProducerWithoutConnectionsIsNotRefused() {
        advanceMillis(60_000);
        assertThat(reachability.unreachable(0)).as("nothing waits: the next record is the probe").isFalse();
    }

    @Test
    void recordsWaitingWithoutAConnectionPastThePatienceRefuseNewOnes() {
        reachability.sent();
        advanceMillis(999);
        assertThat(reachability.unreachable(0)).isFalse();
        advanceMillis(2);
        assertThat(reachability.unreachable(0)).isTrue();
        assertThat(reachability.stalledMillis()).isEqualTo(1_001);
        assertThat(reachability.unreachable(1)).as("a connection is open: the cluster answers").isFalse();
    }

    @Test
    void progressEndsTheRefusals() {
        reachability.sent();
        reachability.sent();
        advanceMillis(5_000);
        assertThat(reachability.unreachable(0)).isTrue();
        reachability.completed();
        assertThat(reachability.unreachable(0)).as("one record completed just now").isFalse();
        advanceMillis(1_500);
        assertThat(reachability.unreachable(0)).as("the other still waits, nothing moved since").isTrue();
        reachability.completed();
        advanceMillis(10_000);
        assertThat(reachability.unreachable(0)).as("the queue drained").isFalse();
    }

    @Test
    void theWaitStartsWhenTheQueueFillsNotAtTheLastOldProgress() {
        reachability.sent();
        reachability.completed();
        advanceMillis(30_000);
        reachability.sent();
        assertThat(reachability.unreachable(0)).isFalse();
    }
}
