package dev.pinfeed.eventsschema;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes an event in the Confluent wire format, registering its schema under the subject
 * {@link EventTopics#subjectFor} names (once per schema and topic when the client caches).
 */
public final class AvroEventSerializer implements Serializer<SpecificRecord> {

    private final SchemaRegistryClient registry;
    private final Map<Schema, DatumWriter<SpecificRecord>> writers = new ConcurrentHashMap<>();

    /** {@code registry} should be a {@link CachingSchemaRegistryClient}, or every record costs a round trip. */
    public AvroEventSerializer(SchemaRegistryClient registry) {
        this.registry = registry;
    }

    @Override
    public byte[] serialize(String topic, SpecificRecord event) {
        if (event == null) {
            return null; // a tombstone stays a tombstone
        }
        Schema schema = event.getSchema();
        try {
            int id = registry.register(EventTopics.subjectFor(topic, schema), schema);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(WireFormat.MAGIC_BYTE);
            out.write(ByteBuffer.allocate(Integer.BYTES).putInt(id).array());
            BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
            writers.computeIfAbsent(schema, SpecificDatumWriter::new).write(event, encoder);
            encoder.flush();
            return out.toByteArray();
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("cannot serialize " + schema.getFullName() + " for topic " + topic + ": " + e.getMessage(), e);
        }
    }
}
