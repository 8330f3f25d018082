package dev.pinfeed.eventsschema;

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
 * schema version still decode: fields added since come out as their defaults.
 */
public final class AvroEventDeserializer implements Deserializer<SpecificRecord> {

    private final SchemaRegistryClient registry;
    private final Map<Integer, DatumReader<SpecificRecord>> readers = new ConcurrentHashMap<>();

    /** {@code registry} should be a {@link CachingSchemaRegistryClient}, or every record costs a round trip. */
    public AvroEventDeserializer(SchemaRegistryClient registry) {
        this.registry = registry;
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
        DatumReader<SpecificRecord> reader = readers.computeIfAbsent(schemaId, this::readerFor);
        try {
            return reader.read(null, DecoderFactory.get().binaryDecoder(
                    data, WireFormat.HEADER_LENGTH, data.length - WireFormat.HEADER_LENGTH, null));
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("cannot decode schema id " + schemaId + " on topic " + topic
                    + " (truncated or corrupt payload?): " + e, e);
        }
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
