package dev.pinfeed.infra.schemaregistry;

import java.util.function.Consumer;

/**
 * Durable, ordered storage of {@link SchemaLogRecord}s: the only state the registry keeps.
 * The registry replays it once at start and appends to it before changing its in-memory state.
 */
public interface SchemaLog extends AutoCloseable {

    /** Stores the record; once this returns the record survives a restart. */
    void append(SchemaLogRecord record);

    /** Hands every stored record to {@code sink}, oldest first. */
    void replay(Consumer<SchemaLogRecord> sink);

    @Override
    default void close() {
    }

    /** The storage failed; the change it carried was not applied. */
    final class SchemaLogException extends RuntimeException {
        public SchemaLogException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
