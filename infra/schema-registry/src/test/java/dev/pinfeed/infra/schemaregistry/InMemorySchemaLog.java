package dev.pinfeed.infra.schemaregistry;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** A {@link SchemaLog} in memory, for tests. {@link #reopen()} simulates a restart over the same storage. */
public final class InMemorySchemaLog implements SchemaLog {

    private final List<SchemaLogRecord> records;

    public InMemorySchemaLog() {
        this(new ArrayList<>());
    }

    private InMemorySchemaLog(List<SchemaLogRecord> records) {
        this.records = records;
    }

    /** A new instance reading and writing the same records, as a restarted process would. */
    public InMemorySchemaLog reopen() {
        return new InMemorySchemaLog(records);
    }

    @Override
    public void append(SchemaLogRecord record) {
        synchronized (records) {
            records.add(record);
        }
    }

    @Override
    public void replay(Consumer<SchemaLogRecord> sink) {
        List<SchemaLogRecord> snapshot;
        synchronized (records) {
            snapshot = List.copyOf(records);
        }
        snapshot.forEach(sink);
    }
}
