package dev.pinfeed.infra.schemaregistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.infra.schemaregistry.SchemaLogRecord.ConfigChange;
import dev.pinfeed.infra.schemaregistry.SchemaLogRecord.SchemaVersion;
import dev.pinfeed.infra.schemaregistry.SchemaLogRecord.SubjectDeletion;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

class SchemaLogCodecTest {

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @FieldSource("dev.pinfeed.infra.schemaregistry.SchemaLogContract#RECORDS")
    void everyRecordRoundTrips(SchemaLogRecord record) {
        assertThat(SchemaLogCodec.decode(SchemaLogCodec.key(record), SchemaLogCodec.value(record))).contains(record);
    }

    @Test
    void keysAreConfluentShaped() {
        assertThat(text(SchemaLogCodec.key(new SchemaVersion("s", 3, 9, "\"int\"", false))))
                .isEqualTo("{\"keytype\":\"SCHEMA\",\"subject\":\"s\",\"version\":3}");
        assertThat(text(SchemaLogCodec.key(ConfigChange.global(CompatibilityLevel.FULL)))).isEqualTo("{\"keytype\":\"CONFIG\"}");
        assertThat(text(SchemaLogCodec.key(ConfigChange.subject("s", CompatibilityLevel.FULL))))
                .isEqualTo("{\"keytype\":\"CONFIG\",\"subject\":\"s\"}");
        assertThat(text(SchemaLogCodec.key(new SubjectDeletion("s", 2)))).isEqualTo("{\"keytype\":\"DELETE_SUBJECT\",\"subject\":\"s\"}");
    }

    @Test
    void aSoftDeletedVersionHasTheSameKeySoCompactionKeepsOnlyTheDeletion() {
        SchemaVersion live = new SchemaVersion("s", 1, 1, "\"int\"", false);

        assertThat(SchemaLogCodec.key(live.asDeleted())).isEqualTo(SchemaLogCodec.key(live));
    }

    @Test
    void removingASubjectOverrideIsATombstone() {
        ConfigChange removal = ConfigChange.subject("s", null);

        assertThat(SchemaLogCodec.value(removal)).isNull();
        assertThat(SchemaLogCodec.decode(SchemaLogCodec.key(removal), null)).contains(removal);
    }

    @Test
    void keyTypesThisRegistryDoesNotWriteAreSkipped() {
        byte[] noop = "{\"keytype\":\"NOOP\",\"magic\":0}".getBytes(StandardCharsets.UTF_8);

        assertThat(SchemaLogCodec.decode(noop, null)).isEmpty();
    }

    @Test
    void garbageIsRefused() {
        byte[] garbage = "not json".getBytes(StandardCharsets.UTF_8);

        assertThatThrownBy(() -> SchemaLogCodec.decode(garbage, garbage)).isInstanceOf(IllegalArgumentException.class);
    }
}
