package dev.pinfeed.ingestapi.core;

import java.util.concurrent.CompletableFuture;
import org.apache.avro.specific.SpecificRecord;

/**
 * Publishes domain events durably. The future completes only once the event is durable
 * (Kafka: acknowledged by all in-sync replicas); events with one partition key keep their order.
 */
public interface EventPublisher extends AutoCloseable {

    /**
     * Starts publishing {@code event}. A full send buffer fails the future with {@link IngestRejection}
     * reason OVERLOADED rather than blocking the caller.
     */
    CompletableFuture<Void> publish(SpecificRecord event);

    @Override
    default void close() {}
}
