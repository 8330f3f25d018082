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
     * reason OVERLOADED rather than blocking the caller; a store that is down before the event was
     * sent (Kafka, the schema registry) fails it with {@code StoreUnavailableException} naming the
     * store. Any other failure of the future means the event may or may not be in the log
     * (UNCONFIRMED). A bug (a closed publisher, an event that cannot be serialized) throws.
     */
    CompletableFuture<Void> publish(SpecificRecord event);

    @Override
    default void close() {}
}
