package dev.pinfeed.infra.schemaregistry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.infra.schemaregistry.SchemaLogRecord.ConfigChange;
import dev.pinfeed.infra.schemaregistry.SchemaLogRecord.SchemaVersion;
import dev.pinfeed.infra.schemaregistry.SchemaLogRecord.SubjectDeletion;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What every {@link SchemaLog} must do, whatever stores it. */
abstract class SchemaLogContract {

    /** One of each record kind, with text that needs escaping, and two records for the same schema version. */
    static final List<SchemaLogRecord> RECORDS = List.of(
            new SchemaVersion("users-value", 1, 1, AvroSchemas.USER_ID, false),
            ConfigChange.global(CompatibilityLevel.FULL),
            ConfigChange.subject("users-value", CompatibilityLevel.NONE),
            new SchemaVersion("pins/value é", 1, 2, AvroSchemas.json("{'type':'enum','name':'E','doc':'\\\"quoted\\\" ünïcode','symbols':['A']}"), false),
            new SchemaVersion("users-value", 1, 1, AvroSchemas.USER_ID, true),
            ConfigChange.subject("users-value", null),
            new SubjectDeletion("pins/value é", 1));

    private final List<SchemaLog> opened = new ArrayList<>();

    /**
     * A log over this test's storage. Every call within one test must reach the same storage (as a
     * restarted process would), and each test must start from empty storage.
     */
    protected abstract SchemaLog openLog();

    private SchemaLog open() {
        SchemaLog log = openLog();
        opened.add(log);
        return log;
    }

    private static List<SchemaLogRecord> replayed(SchemaLog log) {
        List<SchemaLogRecord> records = new ArrayList<>();
        log.replay(records::add);
        return records;
    }

    @AfterEach
    void closeLogs() {
        opened.forEach(SchemaLog::close);
    }

    @Test
    void emptyStorageReplaysNothing() {
        assertThat(replayed(open())).isEmpty();
    }

    @Test
    void replayReturnsAppendedRecordsInOrder() {
        SchemaLog log = open();
        RECORDS.forEach(log::append);

        assertThat(replayed(log)).containsExactlyElementsOf(RECORDS);
    }

    @Test
    void recordsSurviveANewInstanceOverTheSameStorage() {
        SchemaLog writer = open();
        RECORDS.forEach(writer::append);
        writer.close();

        assertThat(replayed(open())).containsExactlyElementsOf(RECORDS);
    }

    @Test
    void aReopenedLogAppendsAfterWhatItReplayed() {
        SchemaLog first = open();
        first.append(RECORDS.get(0));
        first.append(RECORDS.get(1));
        first.close();

        SchemaLog second = open();
        assertThat(replayed(second)).containsExactly(RECORDS.get(0), RECORDS.get(1));
        second.append(RECORDS.get(2));
        second.close();

        assertThat(replayed(open())).containsExactly(RECORDS.get(0), RECORDS.get(1), RECORDS.get(2));
    }

    @Test
    void replayCanBeRepeatedAndSeesLaterAppends() {
        SchemaLog log = open();
        log.append(RECORDS.get(0));
        assertThat(replayed(log)).containsExactly(RECORDS.get(0));

        log.append(RECORDS.get(1));
        assertThat(replayed(log)).containsExactly(RECORDS.get(0), RECORDS.get(1));
    }
}
