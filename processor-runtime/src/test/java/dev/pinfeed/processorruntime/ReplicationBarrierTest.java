package dev.pinfeed.processorruntime;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReplicationBarrierTest {

    @Test
    void theBarrierRunsAfterTheBatchIsAppliedAndCountsInstancesWhoseReplicaDidNotConfirm() {
        List<String> calls = new ArrayList<>();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        BatchHandler handler = ReplicationBarrier.beforeCommit((records, outcomes) -> calls.add("apply"), wait -> {
            calls.add("barrier " + wait.toMillis());
            return Set.of("redis002");
        }, Duration.ofMillis(250), meters, "test_unreplicated_batches_total");

        handler.apply(List.of(), null);
        handler.apply(List.of(), null);

        assertThat(calls).containsExactly("apply", "barrier 250", "apply", "barrier 250");
        assertThat(meters.get("test_unreplicated_batches_total").tag("instance", "redis002").counter().count()).isEqualTo(2);
        assertThat(meters.find("test_unreplicated_batches_total").tag("instance", "redis001").counter()).isNull();
    }

    @Test
    void aBatchThatFailsIsNotFollowedByABarrier() {
        List<String> calls = new ArrayList<>();
        BatchHandler handler = ReplicationBarrier.beforeCommit((records, outcomes) -> {
            throw new IllegalStateException("a bug");
        }, wait -> {
            calls.add("barrier");
            return Set.of();
        }, Duration.ofMillis(1), new SimpleMeterRegistry(), "test_unreplicated_batches_total");
        try {
            handler.apply(List.of(), null);
        } catch (IllegalStateException expected) {
            // the loop handles it
        }
        assertThat(calls).isEmpty();
    }
}
