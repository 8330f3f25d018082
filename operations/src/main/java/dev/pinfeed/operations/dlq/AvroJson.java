package dev.pinfeed.operations.dlq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;

/**
 * A decoded event as plain JSON for a reader: fields by name, times as ISO-8601 text, bytes as hex, unions
 * untagged (Avro's own JSON encoding tags them, and its {@code toString} leaves logical types unquoted).
 */
final class AvroJson {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private AvroJson() {}

    static JsonNode of(Object datum) {
        if (datum == null) return NODES.nullNode();
        if (datum instanceof IndexedRecord r) {
            ObjectNode o = NODES.objectNode();
            for (Schema.Field f : r.getSchema().getFields()) o.set(f.name(), of(r.get(f.pos())));
            return o;
        }
        if (datum instanceof Map<?, ?> m) {
            ObjectNode o = NODES.objectNode();
            m.forEach((k, v) -> o.set(String.valueOf(k), of(v)));
            return o;
        }
        if (datum instanceof Collection<?> c) {
            ArrayNode a = NODES.arrayNode();
            c.forEach(v -> a.add(of(v)));
            return a;
        }
        if (datum instanceof Boolean b) return NODES.booleanNode(b);
        if (datum instanceof Integer i) return NODES.numberNode(i);
        if (datum instanceof Long l) return NODES.numberNode(l);
        if (datum instanceof Float f) return NODES.numberNode(f);
        if (datum instanceof Double d) return NODES.numberNode(d);
        if (datum instanceof ByteBuffer b) {
            ByteBuffer copy = b.duplicate();
            byte[] bytes = new byte[copy.remaining()];
            copy.get(bytes);
            return NODES.textNode(HexFormat.of().formatHex(bytes));
        }
        if (datum instanceof GenericFixed f) return NODES.textNode(HexFormat.of().formatHex(f.bytes()));
        return NODES.textNode(datum.toString()); // strings, enums, Instant and the other logical types
    }
}
