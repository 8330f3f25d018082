package dev.pinfeed.infra.schemaregistry;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.Incompatibility;

/**
 * Confluent's compatibility levels, checked with Avro's own reader/writer rules.
 * BACKWARD: consumers on the new schema can read data written with the old one.
 * FORWARD: consumers still on the old schema can read data written with the new one.
 * FULL: both. *_TRANSITIVE: against every live version instead of only the latest.
 */
public enum CompatibilityLevel {
    NONE(false, false, false),
    BACKWARD(true, false, false),
    BACKWARD_TRANSITIVE(true, false, true),
    FORWARD(false, true, false),
    FORWARD_TRANSITIVE(false, true, true),
    FULL(true, true, false),
    FULL_TRANSITIVE(true, true, true);

    private final boolean newReadsOld;
    private final boolean oldReadsNew;
    private final boolean transitive;

    CompatibilityLevel(boolean newReadsOld, boolean oldReadsNew, boolean transitive) {
        this.newReadsOld = newReadsOld;
        this.oldReadsNew = oldReadsNew;
        this.transitive = transitive;
    }

    /** Parses a level name case-insensitively; throws 42203 for anything else. */
    public static CompatibilityLevel parse(String name) {
        if (name != null) {
            for (CompatibilityLevel level : values()) {
                if (level.name().equalsIgnoreCase(name.trim())) {
                    return level;
                }
            }
        }
        throw RegistryException.invalidCompatibilityLevel(name);
    }

    public boolean isTransitive() {
        return transitive;
    }

    /**
     * Why {@code candidate} may not follow {@code previous} (oldest first, all live versions);
     * empty when it may. Non-transitive levels look at the last one only.
     */
    List<String> incompatibilities(Schema candidate, List<PriorSchema> previous) {
        List<String> messages = new ArrayList<>();
        int from = transitive ? 0 : Math.max(0, previous.size() - 1);
        for (int i = previous.size() - 1; i >= from; i--) {
            PriorSchema old = previous.get(i);
            int before = messages.size();
            if (newReadsOld) {
                describe(SchemaCompatibility.checkReaderWriterCompatibility(candidate, old.schema()), "new schema reading old data", messages);
            }
            if (oldReadsNew) {
                describe(SchemaCompatibility.checkReaderWriterCompatibility(old.schema(), candidate), "old schema reading new data", messages);
            }
            if (messages.size() > before) {
                messages.add("{oldSchemaVersion: " + old.version() + "}");
            }
        }
        if (!messages.isEmpty()) {
            messages.add("{compatibility: '" + name() + "'}");
        }
        return messages;
    }

    private static void describe(SchemaCompatibility.SchemaPairCompatibility pair, String direction, List<String> messages) {
        if (pair.getType() == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            return;
        }
        for (Incompatibility problem : pair.getResult().getIncompatibilities()) {
            messages.add("{errorType:'" + problem.getType() + "', description:'" + problem.getMessage()
                    + " at path '" + problem.getLocation() + "' (" + direction + ")'}");
        }
    }

    /** A live version of the subject, parsed, that a new schema is checked against. */
    record PriorSchema(int version, Schema schema) {
    }
}
