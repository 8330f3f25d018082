package dev.pinfeed.infra.schemaregistry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pinfeed.infra.schemaregistry.SchemaLogRecord.ConfigChange;
import dev.pinfeed.infra.schemaregistry.SchemaLogRecord.SchemaVersion;
import dev.pinfeed.infra.schemaregistry.SchemaLogRecord.SubjectDeletion;
import java.io.IOException;
import java.util.Optional;

/**
 * JSON keys and values of {@link SchemaLogRecord}s in a compacted topic, shaped like Confluent's
 * ({@code {"keytype":"SCHEMA","subject":"s","version":1}}). The key names what a record is about, so
 * compaction keeps only the latest record per key: a schema version's latest state (live/deleted), a
 * subject's latest config (a null value, i.e. a tombstone, removes the override), its latest deletion.
 * Key fields are always written in the same order, since compaction compares key bytes.
 */
final class SchemaLogCodec {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SCHEMA = "SCHEMA";
    private static final String CONFIG = "CONFIG";
    private static final String DELETE_SUBJECT = "DELETE_SUBJECT";

    private SchemaLogCodec() {
    }

    static byte[] key(SchemaLogRecord record) {
        ObjectNode key = JSON.createObjectNode();
        if (record instanceof SchemaVersion v) {
            key.put("keytype", SCHEMA).put("subject", v.subject()).put("version", v.version());
        } else if (record instanceof ConfigChange c) {
            key.put("keytype", CONFIG);
            if (!c.isGlobal()) {
                key.put("subject", c.subject());
            }
        } else if (record instanceof SubjectDeletion d) {
            key.put("keytype", DELETE_SUBJECT).put("subject", d.subject());
        }
        return write(key);
    }

    /** The value bytes, or null for a tombstone (a removed subject config). */
    static byte[] value(SchemaLogRecord record) {
        ObjectNode value = JSON.createObjectNode();
        if (record instanceof SchemaVersion v) {
            value.put("subject", v.subject()).put("version", v.version()).put("id", v.id())
                    .put("schema", v.schema()).put("deleted", v.deleted());
        } else if (record instanceof ConfigChange c) {
            if (c.level() == null) {
                return null;
            }
            value.put("compatibilityLevel", c.level().name());
        } else if (record instanceof SubjectDeletion d) {
            value.put("subject", d.subject()).put("version", d.upToVersion());
        }
        return write(value);
    }

    /** The record a key and value encode; empty for key types this registry does not write (e.g. Confluent's NOOP). */
    static Optional<SchemaLogRecord> decode(byte[] keyBytes, byte[] valueBytes) {
        JsonNode key = read(keyBytes);
        JsonNode value = valueBytes == null ? null : read(valueBytes);
        String subject = key.path("subject").isTextual() ? key.get("subject").asText() : null;
        return Optional.ofNullable(switch (key.path("keytype").asText()) {
            case SCHEMA -> value == null ? null : new SchemaVersion(subject, value.path("version").asInt(),
                    value.path("id").asInt(), value.path("schema").asText(), value.path("deleted").asBoolean());
            case CONFIG -> new ConfigChange(subject, value == null ? null : CompatibilityLevel.parse(value.path("compatibilityLevel").asText()));
            case DELETE_SUBJECT -> value == null ? null : new SubjectDeletion(subject, value.path("version").asInt());
            default -> null;
        });
    }

    private static byte[] write(JsonNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialize " + node, e);
        }
    }

    private static JsonNode read(byte[] bytes) {
        try {
            return JSON.readTree(bytes);
        } catch (IOException e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
        }
    }
}
