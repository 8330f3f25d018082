package dev.pinfeed.eventsschema;

import dev.pinfeed.config.PinfeedConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads a Confluent wire-format event into the current generated class of the same record name,
 * resolving the writer's schema (fetched by id) against it, so events written with an older
 * schema version still decode: fields added since come out as their defaults. Every length in the
 * payload is held to {@link DecodeLimits} (the record's size before the schema is even fetched), so a
 * crafted record fails with a {@link DecodeLimitException} instead of an out-of-memory error.
 */
public final class AvroEventDeserializer implements Deserializer<SpecificRecord> {

    private final SchemaRegistryClient registry;
    private final DecodeLimits limits;
    private final Map<Integer, DatumReader<SpecificRecord>> readers = new ConcurrentHashMap<>();

    /** With {@link DecodeLimits#DEFAULTS}. */
    public AvroEventDeserializer(SchemaRegistryClient registry) {
        this(registry, DecodeLimits.DEFAULTS);
    }

    /** {@code registry} should be a {@link CachingSchemaRegistryClient}, or every record costs a round trip. */
    public AvroEventDeserializer(SchemaRegistryClient registry, DecodeLimits limits) {
        this.registry = registry;
        this.limits = limits;
    }

    /** A reader of {@code config}'s registry (credentials included, cached) with {@code config}'s {@link DecodeLimits}. */
    public static AvroEventDeserializer from(PinfeedConfig config) {
        return new AvroEventDeserializer(new CachingSchemaRegistryClient(HttpSchemaRegistryClient.from(config)), DecodeLimits.from(config));
    }

    @Override
    public SpecificRecord deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        if (data.length < WireFormat.HEADER_LENGTH) {
            throw new SerializationException("not Confluent wire format: " + data.length + " bytes on topic " + topic
                    + ", shorter than the " + WireFormat.HEADER_LENGTH + "-byte header");
        }
        if (data[0] != WireFormat.MAGIC_BYTE) {
            throw new SerializationException("not Confluent wire format: magic byte " + data[0] + " on topic " + topic);
        }
        int schemaId = ByteBuffer.wrap(data, 1, Integer.BYTES).getInt();
        int bodyLength = data.length - WireFormat.HEADER_LENGTH;
        try {
            limits.checkRecord(bodyLength); // first: costs no registry call
        } catch (DecodeLimitException e) {
            throw withContext(e, schemaId, topic);
        }
        // Outside the try below: a registry outage must stay a StoreUnavailableException (a wait, not poison).
        DatumReader<SpecificRecord> reader = readers.computeIfAbsent(schemaId, this::readerFor);
        try {
            return reader.read(null, new BoundedDecoder(
                    DecoderFactory.get().binaryDecoder(data, WireFormat.HEADER_LENGTH, bodyLength, null), limits));
        } catch (DecodeLimitException e) {
            throw withContext(e, schemaId, topic);
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("cannot decode schema id " + schemaId + " on topic " + topic
                    + " (truncated or corrupt payload?): " + e, e);
        }
    }

    private static DecodeLimitException withContext(DecodeLimitException e, int schemaId, String topic) {
        return new DecodeLimitException(e.getMessage() + ": schema id " + schemaId + " on topic " + topic);
    }

    private DatumReader<SpecificRecord> readerFor(int schemaId) {
        Schema writer = registry.schemaById(schemaId);
        Class<?> type = SpecificData.get().getClass(writer);
        if (type == null || !SpecificRecord.class.isAssignableFrom(type)) {
            throw new SerializationException("schema id " + schemaId + " is record " + writer.getFullName()
                    + ", which has no generated event class here");
        }
        Schema reader = SpecificData.get().getSchema(type);
        return new SpecificDatumReader<>(writer, reader);
    }
}
