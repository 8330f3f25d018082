package dev.pinfeed.processorruntime;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Set;
import java.util.function.Function;

/**
 * A batch handler that waits for a store's replicas before the loop commits the batch's offsets: with
 * the replicas caught up, a failover to a replica loses nothing that was committed, and what was not
 * committed is replayed from Kafka (every write is idempotent). An instance whose replica does not
 * confirm in time is counted ({@code metric{instance}}) and the offsets are committed anyway: a lost
 * replica must not stop the processor, and the master still holds the writes.
 */
public final class ReplicationBarrier {

    private ReplicationBarrier() {}

    /**
     * @param unreplicated given how long to wait, the instances whose replicas did not confirm the writes
     *                     made so far (e.g. {@code RedisMasterClients.unreplicated})
     */
    public static BatchHandler beforeCommit(BatchHandler apply, Function<Duration, Set<String>> unreplicated, Duration wait,
                                            MeterRegistry meters, String metric) {
        Meter.MeterProvider<Counter> behind = Counter.builder(metric)
                .description("Batches committed although an instance's replica had not confirmed their writes").withRegistry(meters);
        return (records, outcomes) -> {
            apply.apply(records, outcomes);
            unreplicated.apply(wait).forEach(instance -> behind.withTags("instance", instance).increment());
        };
    }
}
