package dev.pinfeed.eventsschema;

import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinLiked;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class AvroEventSerdeTest {

    private final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
    private final AvroEventSerializer serializer = new AvroEventSerializer(registry);
    private final AvroEventDeserializer deserializer = new AvroEventDeserializer(registry);

    /** PinCreated as first released, before link and imageUrl existed. */
    private static final Schema PIN_CREATED_WITHOUT_LINKS = new Schema.Parser().parse("""
            {"type": "record", "name": "PinCreated", "namespace": "dev.pinfeed.events", "fields": [
              {"name": "eventId", "type": "long"},
              {"name": "occurredAt", "type": {"type": "long", "logicalType": "timestamp-millis"}},
              {"name": "actorId", "type": "long"},
              {"name": "pinId", "type": "long"},
              {"name": "boardId", "type": "long"},
              {"name": "authorId", "type": "long"},
              {"name": "details", "type": "string"}]}
            """);

    @Test
    void everyEventSurvivesARoundTrip() {
        SampleEvents.assertCoversEverySchema();
        for (SpecificRecord event : SampleEvents.all()) {
            String topic = EventTopics.topicFor(event);
            assertThat(deserializer.deserialize(topic, serializer.serialize(topic, event))).isEqualTo(event);
        }
    }

    @Test
    void aRepinKeepsItsParentThroughTheWireAndAnEventOfTheFirstPinCreatedReadsAsAnOriginal() throws Exception {
        dev.pinfeed.events.PinCreated repin = new dev.pinfeed.events.PinCreated(5L, java.time.Instant.ofEpochMilli(1_000), 6L, 30L, 31L, 6L,
                "oak table", "https://example.com/t", null, 29L, java.util.List.of());
        dev.pinfeed.events.PinCreated back = (dev.pinfeed.events.PinCreated) deserializer.deserialize(EventTopics.PINS,
                serializer.serialize(EventTopics.PINS, repin));
        assertThat(back.getParentPinId()).isEqualTo(29L);

        Schema v1 = new Schema.Parser().parse(java.nio.file.Files.readString(SampleEvents.RELEASED_SCHEMAS.resolve("PinCreated/v1.avsc")));
        assertThat(v1.getField("parentPinId")).as("v1 had no parent").isNull();
        assertThat(dev.pinfeed.events.PinCreated.getClassSchema().getField("parentPinId").defaultVal()).isEqualTo(org.apache.avro.JsonProperties.NULL_VALUE);
    }

    @Test
    void aPinKeepsItsInterestsThroughTheWireAndAnEventOfAnEarlierPinCreatedReadsWithNone() throws Exception {
        dev.pinfeed.events.PinCreated tagged = new dev.pinfeed.events.PinCreated(5L, java.time.Instant.ofEpochMilli(1_000), 6L, 30L, 31L, 6L,
                "oak table", null, null, null, java.util.List.of(77L, 78L));
        dev.pinfeed.events.PinCreated back = (dev.pinfeed.events.PinCreated) deserializer.deserialize(EventTopics.PINS,
                serializer.serialize(EventTopics.PINS, tagged));
        assertThat(back.getInterestIds()).containsExactly(77L, 78L);

        Schema v2 = new Schema.Parser().parse(java.nio.file.Files.readString(SampleEvents.RELEASED_SCHEMAS.resolve("PinCreated/v2.avsc")));
        GenericRecord old = new GenericData.Record(v2);
        old.put("eventId", 1L);
        old.put("occurredAt", 1_000L);
        old.put("actorId", 2L);
        old.put("pinId", 3L);
        old.put("boardId", 4L);
        old.put("authorId", 2L);
        old.put("details", "before interests");
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        org.apache.avro.io.BinaryEncoder enc = org.apache.avro.io.EncoderFactory.get().binaryEncoder(out, null);
        new org.apache.avro.generic.GenericDatumWriter<GenericRecord>(v2).write(old, enc);
        enc.flush();
        dev.pinfeed.events.PinCreated read = new org.apache.avro.specific.SpecificDatumReader<dev.pinfeed.events.PinCreated>(v2,
                dev.pinfeed.events.PinCreated.getClassSchema()).read(null,
                org.apache.avro.io.DecoderFactory.get().binaryDecoder(out.toByteArray(), null));
        assertThat(read.getDetails()).isEqualTo("before interests");
        assertThat(read.getInterestIds()).as("v2 had no interests: the default").isEmpty();
    }

    @Test
    void framesWithMagicByteAndTheIdOfTheTopicRecordSubject() {
        PinLiked event = (PinLiked) SampleEvents.all().stream().filter(PinLiked.class::isInstance).findFirst().orElseThrow();
        byte[] bytes = serializer.serialize(EventTopics.LIKES, event);

        int id = registry.register("pinfeed.likes.v1-dev.pinfeed.events.PinLiked", PinLiked.getClassSchema());
        assertThat(bytes[0]).isZero();
        assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(id);
    }

    @Test
    void anEventWrittenWithAnOlderSchemaDecodesIntoTheCurrentClass() throws IOException {
        GenericRecord old = new GenericData.Record(PIN_CREATED_WITHOUT_LINKS);
        old.put("eventId", 1L);
        old.put("occurredAt", 1_767_225_600_123L);
        old.put("actorId", 2L);
        old.put("pinId", 3L);
        old.put("boardId", 4L);
        old.put("authorId", 2L);
        old.put("details", "walnut shelf");
        int oldId = registry.register(EventTopics.subjectFor(EventTopics.PINS, PIN_CREATED_WITHOUT_LINKS), PIN_CREATED_WITHOUT_LINKS);

        SpecificRecord decoded = deserializer.deserialize(EventTopics.PINS, confluentFrame(oldId, old));

        assertThat(decoded).isInstanceOfSatisfying(PinCreated.class, pin -> {
            assertThat(pin.getPinId()).isEqualTo(3L);
            assertThat(pin.getOccurredAt().toEpochMilli()).isEqualTo(1_767_225_600_123L);
            assertThat(pin.getDetails()).isEqualTo("walnut shelf");
            assertThat(pin.getLink()).isNull();
            assertThat(pin.getImageUrl()).isNull();
        });
    }

    @Test
    void refusesAWrongMagicByte() {
        byte[] bytes = serializer.serialize(EventTopics.PINS, SampleEvents.all().get(2));
        bytes[0] = 7;
        assertThatThrownBy(() -> deserializer.deserialize(EventTopics.PINS, bytes)).isInstanceOf(SerializationException.class)
                .hasMessageContaining("not Confluent wire format: magic byte 7");
    }

    @Test
    void refusesAPayloadShorterThanTheHeader() {
        assertThatThrownBy(() -> deserializer.deserialize(EventTopics.PINS, new byte[] {0, 0, 1}))
                .isInstanceOf(SerializationException.class).hasMessageContaining("shorter than the 5-byte header");
    }

    @Test
    void refusesATruncatedBody() {
        byte[] bytes = serializer.serialize(EventTopics.PINS, SampleEvents.all().get(2));
        byte[] truncated = Arrays.copyOf(bytes, bytes.length - 10);
        assertThatThrownBy(() -> deserializer.deserialize(EventTopics.PINS, truncated)).isInstanceOf(SerializationException.class)
                .hasMessageContaining("truncated or corrupt");
    }

    @Test
    void refusesARecordWithoutAGeneratedClass() throws IOException {
        Schema stranger = new Schema.Parser().parse("""
                {"type": "record", "name": "Stranger", "namespace": "dev.pinfeed.events", "fields": [{"name": "id", "type": "long"}]}
                """);
        GenericRecord record = new GenericData.Record(stranger);
        record.put("id", 1L);
        int id = registry.register("t-dev.pinfeed.events.Stranger", stranger);

        assertThatThrownBy(() -> deserializer.deserialize("t", confluentFrame(id, record))).isInstanceOf(SerializationException.class)
                .hasMessageContaining("dev.pinfeed.events.Stranger, which has no generated event class");
    }

    @Test
    void nullStaysNull() {
        assertThat(serializer.serialize(EventTopics.PINS, null)).isNull();
        assertThat(deserializer.deserialize(EventTopics.PINS, null)).isNull();
    }

    /** Frames by hand, independently of the serializer, so a framing bug cannot hide in both directions. */
    private static byte[] confluentFrame(int schemaId, GenericRecord record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        out.write(ByteBuffer.allocate(4).putInt(schemaId).array());
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(record.getSchema()).write(record, encoder);
        encoder.flush();
        return out.toByteArray();
    }
}
