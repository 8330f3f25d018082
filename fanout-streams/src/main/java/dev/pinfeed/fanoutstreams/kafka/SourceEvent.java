package dev.pinfeed.fanoutstreams.kafka;

import dev.pinfeed.eventsschema.AvroEventDeserializer;
import dev.pinfeed.eventsschema.DecodeLimits;
import dev.pinfeed.eventsschema.SchemaRegistryClient;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * An input event with the bytes it was decoded from: a job that keeps failing is dead-lettered with
 * the pin event exactly as it was read.
 */
public record SourceEvent(SpecificRecord event, byte[] raw) {

    /** Decodes the Confluent wire format ({@link AvroEventDeserializer}) within {@code limits}; failures go to the deserialization handler. */
    public static Deserializer<SourceEvent> deserializer(SchemaRegistryClient registry, DecodeLimits limits) {
        AvroEventDeserializer avro = new AvroEventDeserializer(registry, limits);
        return (topic, data) -> {
            SpecificRecord event = avro.deserialize(topic, data);
            return event == null ? null : new SourceEvent(event, data);
        };
    }
}
