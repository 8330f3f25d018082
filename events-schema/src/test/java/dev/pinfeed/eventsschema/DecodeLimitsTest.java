package dev.pinfeed.eventsschema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.events.BoardPinsReordered;
import dev.pinfeed.events.UserCreated;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/** Crafted Avro binary (a wire-format header, then hand-written fields and a huge length prefix) against the decoding limits. */
class DecodeLimitsTest {

    private static final String TOPIC = "pinfeed.boards.v1";

    private final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
    private final int reorderedId = registry.register("boards-reordered", BoardPinsReordered.getClassSchema());
    private final int userCreatedId = registry.register("users-created", UserCreated.getClassSchema());

    /** The wire format's header for {@code schemaId}, then whatever {@code body} writes. */
    private interface Body {
        void write(BinaryEncoder out) throws IOException;
    }

    private static byte[] record(int schemaId, Body body) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write(WireFormat.MAGIC_BYTE);
        bytes.write(ByteBuffer.allocate(Integer.BYTES).putInt(schemaId).array());
        BinaryEncoder out = EncoderFactory.get().directBinaryEncoder(bytes, null);
        body.write(out);
        out.flush();
        return bytes.toByteArray();
    }

    /** BoardPinsReordered's four longs (eventId, occurredAt, actorId, boardId), then its pinIds as {@code blocks}. */
    private byte[] reordered(long... blockCounts) throws IOException {
        return record(reorderedId, out -> {
            for (long field : new long[] {1, 1_700_000_000_000L, 7, 9}) out.writeLong(field);
            for (long count : blockCounts) {
                out.writeLong(count); // a block's item count ...
                for (long i = 0; i < count && count < 1000; i++) out.writeLong(100 + i); // ... and its items, when not crafted
            }
            out.writeLong(0); // end of the array
        });
    }

    private static AvroEventDeserializer decoder(InMemorySchemaRegistryClient registry, DecodeLimits limits) {
        return new AvroEventDeserializer(registry, limits);
    }

    @Test
    void anArrayLengthPrefixOf2To30IsRefusedBeforeAnythingIsAllocated() throws IOException {
        byte[] crafted = reordered(1L << 30);

        assertThatThrownBy(() -> decoder(registry, DecodeLimits.DEFAULTS).deserialize(TOPIC, crafted))
                .isInstanceOf(DecodeLimitException.class)
                .hasMessage("array of 1073741824 items exceeds the limit of 100000 (events.decode.max-collection-items): schema id "
                        + reorderedId + " on topic " + TOPIC);
    }

    @Test
    void aStringLengthPrefixOf2GbIsRefused() throws IOException {
        byte[] crafted = record(userCreatedId, out -> {
            for (long field : new long[] {1, 1_700_000_000_000L, 7, 9}) out.writeLong(field);
            out.writeLong(1L << 31); // username: 2 GiB announced, nothing follows
        });

        assertThatThrownBy(() -> decoder(registry, DecodeLimits.DEFAULTS).deserialize(TOPIC, crafted))
                .isInstanceOf(DecodeLimitException.class)
                .hasMessageStartingWith("string of 2147483648 bytes exceeds the limit of 262144 (events.decode.max-string-bytes)");
    }

    @Test
    void anOversizedRecordIsRefusedBeforeItsSchemaIsFetched() throws IOException {
        int unknownId = 999; // the registry would answer 404: the size check must come first
        byte[] big = record(unknownId, out -> out.writeFixed(new byte[65]));

        assertThatThrownBy(() -> decoder(registry, new DecodeLimits(64, 16, 3)).deserialize(TOPIC, big))
                .isInstanceOf(DecodeLimitException.class)
                .hasMessage("record of 65 bytes exceeds the limit of 64 (events.decode.max-record-bytes): schema id 999 on topic " + TOPIC);
    }

    @Test
    void theBlocksOfOneArrayCountTogether() throws IOException {
        DecodeLimits three = new DecodeLimits(1 << 20, 16, 3);

        assertThat(((BoardPinsReordered) decoder(registry, three).deserialize(TOPIC, reordered(2, 1))).getPinIds())
                .containsExactly(100L, 101L, 100L);
        assertThatThrownBy(() -> decoder(registry, three).deserialize(TOPIC, reordered(2, 2)))
                .isInstanceOf(DecodeLimitException.class).hasMessageStartingWith("array of 4 items exceeds the limit of 3");
    }

    @Test
    void normalRecordsStillDecodeUnderTightLimits() {
        AvroEventSerializer serializer = new AvroEventSerializer(registry);
        AvroEventDeserializer tight = decoder(registry, new DecodeLimits(200, 16, 3));
        List<SpecificRecord> events = List.of(
                new BoardPinsReordered(1L, Instant.ofEpochMilli(5), 2L, 3L, List.of(4L, 5L, 6L)),
                new UserCreated(1L, Instant.ofEpochMilli(5), 2L, 2L, "sixteen-bytes-ok", null));
        for (SpecificRecord event : events) {
            assertThat(tight.deserialize(TOPIC, serializer.serialize(EventTopics.topicFor(event), event))).isEqualTo(event);
        }
    }

    // ---- maps, bytes and nesting: no pinfeed event has them yet, so through the decoder with a generic reader

    private static final Schema SHAPES = new Schema.Parser().parse("""
            {"type": "record", "name": "Shapes", "namespace": "dev.pinfeed.test", "fields": [
              {"name": "counts", "type": {"type": "map", "values": "long"}},
              {"name": "blob", "type": "bytes"},
              {"name": "grid", "type": {"type": "array", "items": {"type": "array", "items": "long"}}}]}
            """);

    private static GenericRecord readShapes(DecodeLimits limits, Body body) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BinaryEncoder out = EncoderFactory.get().directBinaryEncoder(bytes, null);
        body.write(out);
        out.flush();
        byte[] data = bytes.toByteArray();
        return new GenericDatumReader<GenericRecord>(SHAPES).read(null,
                new BoundedDecoder(DecoderFactory.get().binaryDecoder(data, null), limits));
    }

    @Test
    void aMapLengthPrefixOf2To30IsRefused() {
        assertThatThrownBy(() -> readShapes(DecodeLimits.DEFAULTS, out -> out.writeLong(1L << 30)))
                .isInstanceOf(DecodeLimitException.class)
                .hasMessage("map of 1073741824 items exceeds the limit of 100000 (events.decode.max-collection-items)");
    }

    @Test
    void aBytesLengthPrefixOver2GbIsRefused() {
        assertThatThrownBy(() -> readShapes(DecodeLimits.DEFAULTS, out -> {
            out.writeLong(0); // empty map
            out.writeLong(3L << 30); // blob: 3 GiB announced
        })).isInstanceOf(DecodeLimitException.class)
                .hasMessage("bytes of 3221225472 bytes exceeds the limit of 262144 (events.decode.max-string-bytes)");
    }

    @Test
    void innerCollectionsCountOnTheirOwn() throws IOException {
        DecodeLimits three = new DecodeLimits(1 << 20, 4, 3);
        GenericRecord read = readShapes(three, out -> {
            out.writeLong(1); out.writeString("a"); out.writeLong(1); out.writeLong(0); // counts: {a: 1}
            out.writeBytes(new byte[] {1, 2, 3, 4}); // blob: at the limit
            out.writeLong(3); // grid: 3 rows of 3 (9 longs in all, each collection within 3)
            for (int row = 0; row < 3; row++) {
                out.writeLong(3);
                for (int col = 0; col < 3; col++) out.writeLong(row * 3 + col);
                out.writeLong(0);
            }
            out.writeLong(0);
        });
        assertThat(read.get("grid")).hasToString("[[0, 1, 2], [3, 4, 5], [6, 7, 8]]");
        assertThat(((ByteBuffer) read.get("blob")).remaining()).isEqualTo(4);
        assertThat(((GenericData.Record) read).get("counts")).hasToString("{a=1}");
    }

    @Test
    void limitsComeFromTheConfigurationWithDefaults() {
        Properties p = new Properties();
        p.setProperty(DecodeLimits.MAX_COLLECTION_ITEMS_KEY, "5000");
        assertThat(DecodeLimits.from(PinfeedConfig.of(p))).isEqualTo(new DecodeLimits(1 << 20, 256 << 10, 5000));
        assertThat(DecodeLimits.from(PinfeedConfig.of(new Properties()))).isEqualTo(DecodeLimits.DEFAULTS);
        p.setProperty(DecodeLimits.MAX_STRING_BYTES_KEY, "0");
        assertThatThrownBy(() -> DecodeLimits.from(PinfeedConfig.of(p))).hasMessage("events.decode.max-string-bytes must be at least 1: 0");
    }
}
