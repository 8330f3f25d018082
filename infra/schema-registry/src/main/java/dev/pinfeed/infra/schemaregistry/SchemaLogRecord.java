package dev.pinfeed.infra.schemaregistry;

import java.util.Objects;

/**
 * One durable change to the registry. Replaying every record in order rebuilds the whole state,
 * so each record must carry everything needed to apply it (no references to in-memory state).
 */
public sealed interface SchemaLogRecord {

    /** A schema registered under a subject as a version; re-appended with {@code deleted=true} on soft delete. */
    record SchemaVersion(String subject, int version, int id, String schema, boolean deleted) implements SchemaLogRecord {
        public SchemaVersion {
            Objects.requireNonNull(subject, "subject");
            Objects.requireNonNull(schema, "schema");
        }

        SchemaVersion asDeleted() {
            return new SchemaVersion(subject, version, id, schema, true);
        }
    }

    /**
     * The compatibility level of one subject, or the global default when {@code subject} is null.
     * A null {@code level} removes a subject's override (stored as a tombstone in Kafka).
     */
    record ConfigChange(String subject, CompatibilityLevel level) implements SchemaLogRecord {
        public ConfigChange {
            if (subject == null && level == null) {
                throw new IllegalArgumentException("the global compatibility level cannot be removed");
            }
        }

        public static ConfigChange global(CompatibilityLevel level) {
            return new ConfigChange(null, Objects.requireNonNull(level, "level"));
        }

        public static ConfigChange subject(String subject, CompatibilityLevel level) {
            return new ConfigChange(Objects.requireNonNull(subject, "subject"), level);
        }

        public boolean isGlobal() {
            return subject == null;
        }
    }

    /**
     * Soft delete of every version of a subject up to and including {@code upToVersion}. Bounded so
     * that versions registered after the deletion stay live whatever compaction keeps.
     */
    record SubjectDeletion(String subject, int upToVersion) implements SchemaLogRecord {
        public SubjectDeletion {
            Objects.requireNonNull(subject, "subject");
        }
    }
}
