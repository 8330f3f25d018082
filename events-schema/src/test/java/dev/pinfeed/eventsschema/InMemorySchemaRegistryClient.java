package dev.pinfeed.eventsschema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;

/**
 * A registry in memory, for unit tests: global ids shared across subjects like Confluent's, and
 * compatibility enforced per subject ({@code BACKWARD_TRANSITIVE} unless set otherwise) with Avro's
 * own {@link SchemaCompatibility}, so an evolution the real registry would refuse fails here too.
 */
public final class InMemorySchemaRegistryClient implements SchemaRegistryClient {

    private static final String DEFAULT_LEVEL = "BACKWARD_TRANSITIVE";
    private static final List<String> LEVELS = List.of("NONE", "BACKWARD", "BACKWARD_TRANSITIVE",
            "FORWARD", "FORWARD_TRANSITIVE", "FULL", "FULL_TRANSITIVE");

    private final Map<Schema, Integer> idBySchema = new HashMap<>();
    private final List<Schema> schemaById = new ArrayList<>();
    private final Map<String, List<Schema>> versions = new HashMap<>();
    private final Map<String, String> levels = new HashMap<>();

    @Override
    public synchronized int register(String subject, Schema schema) {
        List<Schema> subjectVersions = versions.computeIfAbsent(subject, s -> new ArrayList<>());
        if (!subjectVersions.contains(schema)) {
            if (!isCompatible(subject, schema)) {
                throw new SchemaRegistryException(409, 409,
                        "Schema being registered is incompatible with an earlier schema for subject \"" + subject + "\"");
            }
            subjectVersions.add(schema);
        }
        return idBySchema.computeIfAbsent(schema, s -> {
            schemaById.add(s);
            return schemaById.size(); // ids start at 1, as in Confluent
        });
    }

    @Override
    public synchronized Schema schemaById(int id) {
        if (id < 1 || id > schemaById.size()) {
            throw new SchemaRegistryException(404, 40403, "Schema " + id + " not found");
        }
        return schemaById.get(id - 1);
    }

    @Override
    public synchronized boolean isCompatible(String subject, Schema schema) {
        String level = levels.getOrDefault(subject, DEFAULT_LEVEL);
        List<Schema> existing = versions.getOrDefault(subject, List.of());
        if (level.equals("NONE") || existing.isEmpty()) {
            return true;
        }
        List<Schema> checked = level.endsWith("_TRANSITIVE") ? existing : existing.subList(existing.size() - 1, existing.size());
        boolean backward = level.startsWith("BACKWARD") || level.startsWith("FULL");
        boolean forward = level.startsWith("FORWARD") || level.startsWith("FULL");
        return checked.stream().allMatch(old ->
                (!backward || canRead(schema, old)) && (!forward || canRead(old, schema)));
    }

    @Override
    public synchronized void setCompatibility(String subject, String level) {
        String normalized = level.toUpperCase(Locale.ROOT);
        if (!LEVELS.contains(normalized)) {
            throw new SchemaRegistryException(422, 42203, "Invalid compatibility level " + level);
        }
        levels.put(subject, normalized);
    }

    private static boolean canRead(Schema reader, Schema writer) {
        return SchemaCompatibility.checkReaderWriterCompatibility(reader, writer).getType()
                == SchemaCompatibilityType.COMPATIBLE;
    }
}
