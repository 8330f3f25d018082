package dev.pinfeed.eventsschema;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Schema evolution end to end, through the shared stack's real Kafka and real registry: events
 * written with the released {@code PinCreated} v1 stay readable after the subject evolves to a v2
 * with an added defaulted field, the registry refuses an incompatible v3 at registration, and the
 * consumer-side {@link AvroEventDeserializer} decodes both generations from one topic in order.
 */
@ExtendWith(StackExtension.class)
class SchemaEvolutionKafkaIT {

    private static final int V1_COUNT = 50;
    private static final int V2_COUNT = 30;
    private static final long AT = 1_767_225_600_123L; // 2026-01-01T00:00:00.123Z

    private static final Path RELEASED_V1 = SampleEvents.RELEASED_SCHEMAS.resolve("PinCreated/v1.avsc");
    private static final String TAGS_FIELD =
            "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"string\"},\"default\":[],\"doc\":\"Added in v2.\"}";
    private static final String REQUIRED_FIELD = "{\"name\":\"boardSection\",\"type\":\"string\",\"doc\":\"No default: incompatible.\"}";
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Lets the module's {@link AvroEventSerializer} (typed on {@link SpecificRecord}) write a
     * {@link GenericRecord} of an arbitrary writer schema: it only uses the schema and the indexed
     * fields, so registration, framing and encoding are the production code's, not a copy.
     */
    private record AsSpecific(GenericRecord generic) implements SpecificRecord {
        @Override
        public Schema getSchema() {
            return generic.getSchema();
        }

        @Override
        public Object get(int i) {
            return generic.get(i);
        }

        @Override
        public void put(int i, Object v) {
            generic.put(i, v);
        }
    }

    @Test
    void eventsWrittenWithTheReleasedSchemaStillDecodeAfterAnEvolution(TestStack stack) throws Exception {
        String topic = stack.uniqueTopic("evolution");
        try (Admin admin = Admin.create(stack.kafkaClientProperties())) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, SECONDS);
        }

        Schema v1 = SampleEvents.parse(RELEASED_V1);
        Schema v2 = withField(v1, TAGS_FIELD);
        Schema v3 = withField(v2, REQUIRED_FIELD);
        String subject = EventTopics.subjectFor(topic, v1);
        assertThat(subject).isEqualTo(topic + "-dev.pinfeed.events.PinCreated");

        // The writing side: raw HTTP client for explicit registrations, the serializer on a caching one.
        SchemaRegistryClient http = HttpSchemaRegistryClient.from(stack.config());
        AvroEventSerializer serializer = new AvroEventSerializer(new CachingSchemaRegistryClient(http));

        // 1. v1: register the released schema on the fresh subject, then produce with it.
        int v1Id = http.register(subject, v1);
        assertThat(v1Id).isPositive();
        List<PinCreated> v1Events = IntStream.range(0, V1_COUNT).mapToObj(i -> event(1, i)).toList();
        List<RecordMetadata> sent = new ArrayList<>(produce(stack, topic, serializer,
                v1Events.stream().map(e -> toGeneric(v1, e, null)).toList()));

        // 2. Evolve: an added field with a default is accepted as a new schema (new global id)...
        int v2Id = http.register(subject, v2);
        assertThat(v2Id).isPositive().isNotEqualTo(v1Id);
        assertThat(http.register(subject, v1)).as("v1 is still registered under its id").isEqualTo(v1Id);
        // ...a required field without a default is refused at registration: old data could not be read.
        assertThat(http.isCompatible(subject, v3)).isFalse();
        assertThatThrownBy(() -> http.register(subject, v3))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                    assertThat(e.httpStatus()).isEqualTo(SchemaRegistryException.INCOMPATIBLE);
                    assertThat(e.errorCode()).isEqualTo(409);
                    assertThat(e.getMessage()).contains("incompatible", subject, "boardSection");
                });

        // 3. v2 events, each with tags (some empty), on the same topic after the v1 ones.
        List<PinCreated> v2Events = IntStream.range(0, V2_COUNT).mapToObj(i -> event(2, i)).toList();
        List<List<String>> v2Tags = IntStream.range(0, V2_COUNT).mapToObj(SchemaEvolutionKafkaIT::tagsOf).toList();
        sent.addAll(produce(stack, topic, serializer,
                IntStream.range(0, V2_COUNT).mapToObj(i -> toGeneric(v2, v2Events.get(i), v2Tags.get(i))).toList()));
        assertThat(sent).extracting(RecordMetadata::offset)
                .containsExactlyElementsOf(IntStream.range(0, V1_COUNT + V2_COUNT).mapToObj(Long::valueOf).toList());

        // 4. Read everything back as a plain byte consumer would get it.
        List<ConsumerRecord<byte[], byte[]>> consumed = consumeAll(stack, topic, stack.uniqueName("evolution"), V1_COUNT + V2_COUNT);
        assertThat(consumed).hasSize(V1_COUNT + V2_COUNT);
        List<PinCreated> expected = new ArrayList<>(v1Events);
        expected.addAll(v2Events);
        for (int i = 0; i < consumed.size(); i++) {
            ConsumerRecord<byte[], byte[]> r = consumed.get(i);
            assertThat(r.offset()).isEqualTo(i);
            assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo(Long.toString(expected.get(i).getPinId()));
            ByteBuffer header = ByteBuffer.wrap(r.value());
            assertThat(header.get()).isEqualTo(WireFormat.MAGIC_BYTE);
            assertThat(header.getInt()).as("schema id of record %d", i).isEqualTo(i < V1_COUNT ? v1Id : v2Id);
        }

        // 5. The production deserializer, on its own registry client (writer schemas fetched by id),
        // decodes both generations into the current generated class, in order.
        SchemaRegistryClient readerRegistry = new CachingSchemaRegistryClient(HttpSchemaRegistryClient.from(stack.config()));
        assertThat(readerRegistry.schemaById(v1Id)).isEqualTo(v1);
        assertThat(readerRegistry.schemaById(v2Id)).isEqualTo(v2);
        List<PinCreated> decoded;
        try (AvroEventDeserializer deserializer = new AvroEventDeserializer(readerRegistry)) {
            decoded = consumed.stream().map(r -> deserializer.deserialize(topic, r.value()))
                    .map(PinCreated.class::cast).toList();
        }
        assertThat(decoded).hasSize(V1_COUNT + V2_COUNT).containsExactlyElementsOf(expected);
        assertThat(decoded.get(0).getPinId()).isEqualTo(10_000L);
        assertThat(decoded.get(0).getDetails()).isEqualTo("v1 pin #0");
        assertThat(decoded.get(0).getLink()).isNull();
        assertThat(decoded.get(1).getLink()).isEqualTo("https://example.com/v1/1");
        assertThat(decoded.get(V1_COUNT).getPinId()).isEqualTo(20_000L);
        assertThat(decoded.get(V1_COUNT).getDetails()).isEqualTo("v2 pin #0");
        // Fields the current schema has and v1 lacks come out as their defaults (none while current == v1).
        Schema current = PinCreated.getClassSchema();
        List<Schema.Field> addedSinceV1 = current.getFields().stream().filter(f -> v1.getField(f.name()) == null).toList();
        for (PinCreated e : decoded.subList(0, V1_COUNT)) {
            for (Schema.Field f : addedSinceV1) {
                assertThat(e.get(f.pos())).as("%s of a v1 event", f.name()).isEqualTo(SpecificData.getForSchema(current).getDefaultValue(f));
            }
        }

        // 6. v1 bytes read with v2 as the reader schema: tags is the default, everything else as written.
        List<GenericRecord> v1AsV2 = consumed.subList(0, V1_COUNT).stream().map(r -> decodeGeneric(r.value(), v1, v2)).toList();
        for (int i = 0; i < V1_COUNT; i++) {
            GenericRecord g = v1AsV2.get(i);
            assertThat(g.getSchema()).isEqualTo(v2);
            assertThat((List<?>) g.get("tags")).as("tags of v1 record %d", i).isEmpty();
            assertThat(g.get("pinId")).isEqualTo(v1Events.get(i).getPinId());
            assertThat(g.get("details")).hasToString(v1Events.get(i).getDetails());
            assertThat(g.get("link") == null ? null : g.get("link").toString()).isEqualTo(v1Events.get(i).getLink());
            assertThat(g.get("occurredAt")).isEqualTo(v1Events.get(i).getOccurredAt().toEpochMilli());
        }
        // ...and the v2 records carry the tags they were written with (the field really travels).
        List<List<String>> tagsRead = consumed.subList(V1_COUNT, consumed.size()).stream()
                .map(r -> decodeGeneric(r.value(), v2, v2))
                .map(g -> ((List<?>) g.get("tags")).stream().map(Object::toString).toList())
                .toList();
        assertThat(tagsRead).containsExactlyElementsOf(v2Tags);
    }

    /** Distinct, generation-tagged values; link and imageUrl alternate with null. */
    private static PinCreated event(int generation, int i) {
        long base = generation * 10_000L + i;
        return new PinCreated(base + 1_000_000L, Instant.ofEpochMilli(AT + base), base + 2_000_000L, base,
                base + 3_000_000L, base + 4_000_000L, "v" + generation + " pin #" + i,
                i % 3 == 0 ? null : "https://example.com/v" + generation + "/" + i,
                i % 2 == 0 ? "https://img.example.com/v" + generation + "/" + i + ".jpg" : null, null, List.of());
    }

    private static List<String> tagsOf(int i) {
        return i % 4 == 0 ? List.of() : List.of("tag-" + i, "v2");
    }

    /** {@code e} as a generic record of {@code writer} (plain generic data: timestamps as epoch millis). */
    private static GenericRecord toGeneric(Schema writer, PinCreated e, List<String> tags) {
        GenericRecordBuilder b = new GenericRecordBuilder(writer)
                .set("eventId", e.getEventId())
                .set("occurredAt", e.getOccurredAt().toEpochMilli())
                .set("actorId", e.getActorId())
                .set("pinId", e.getPinId())
                .set("boardId", e.getBoardId())
                .set("authorId", e.getAuthorId())
                .set("details", e.getDetails())
                .set("link", e.getLink())
                .set("imageUrl", e.getImageUrl());
        if (tags != null) {
            b.set("tags", tags);
        }
        return b.build();
    }

    /** Produces {@code records} in order through {@link AvroEventSerializer}, keyed by pin id; waits for every ack. */
    private static List<RecordMetadata> produce(TestStack stack, String topic, AvroEventSerializer serializer,
            List<GenericRecord> records) throws Exception {
        Properties p = stack.kafkaClientProperties();
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        List<Future<RecordMetadata>> futures = new ArrayList<>();
        try (KafkaProducer<String, SpecificRecord> producer = new KafkaProducer<>(p, new StringSerializer(), serializer)) {
            for (GenericRecord r : records) {
                futures.add(producer.send(new ProducerRecord<>(topic, r.get("pinId").toString(), new AsSpecific(r))));
            }
            producer.flush();
            List<RecordMetadata> acked = new ArrayList<>();
            for (Future<RecordMetadata> f : futures) {
                acked.add(f.get(30, SECONDS));
            }
            return acked;
        }
    }

    private static List<ConsumerRecord<byte[], byte[]>> consumeAll(TestStack stack, String topic, String group, int expected) {
        Properties c = stack.kafkaClientProperties();
        c.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<ConsumerRecord<byte[], byte[]>> seen = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (seen.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(500)).forEach(seen::add);
            }
            consumer.poll(Duration.ofMillis(500)).forEach(seen::add); // anything extra would show now
        }
        return seen;
    }

    /** The Avro body of a wire-format record, resolved from {@code writer} to {@code reader}. */
    private static GenericRecord decodeGeneric(byte[] wire, Schema writer, Schema reader) {
        try {
            return new GenericDatumReader<GenericRecord>(writer, reader, GenericData.get()).read(null,
                    DecoderFactory.get().binaryDecoder(wire, WireFormat.HEADER_LENGTH, wire.length - WireFormat.HEADER_LENGTH, null));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code base} with one more field (JSON), same record name. */
    private static Schema withField(Schema base, String fieldJson) throws IOException {
        ObjectNode schema = (ObjectNode) JSON.readTree(base.toString());
        ((ArrayNode) schema.get("fields")).add(JSON.readTree(fieldJson));
        return new Schema.Parser().parse(schema.toString());
    }
}
