package dev.pinfeed.infra.schemaregistry;

import static dev.pinfeed.infra.schemaregistry.AvroSchemas.USER_ID;
import static dev.pinfeed.infra.schemaregistry.AvroSchemas.USER_ID_NAME;
import static dev.pinfeed.infra.schemaregistry.AvroSchemas.USER_ID_NAME_AGE;
import static dev.pinfeed.infra.schemaregistry.AvroSchemas.USER_ID_NAME_AS_INT;
import static dev.pinfeed.infra.schemaregistry.AvroSchemas.USER_ID_NAME_DEFAULTED;
import static dev.pinfeed.infra.schemaregistry.AvroSchemas.USER_ID_NAME_EMAIL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.avro.Schema;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SchemaRegistryTest {

    private static final String SUBJECT = "users-value";

    private final InMemorySchemaLog log = new InMemorySchemaLog();
    private final SchemaRegistry registry = SchemaRegistry.replaying(log, CompatibilityLevel.BACKWARD);

    private static void assertRefused(ThrowingCallable call, int httpStatus, int errorCode) {
        assertThatThrownBy(call).isInstanceOfSatisfying(RegistryException.class, e -> {
            assertThat(e.httpStatus()).isEqualTo(httpStatus);
            assertThat(e.errorCode()).isEqualTo(errorCode);
        });
    }

    private static String canonical(String schema) {
        return new Schema.Parser().parse(schema).toString();
    }

    @Nested
    class CompatibilityLevels {

        /** Registers {@code older} then {@code newer} under {@code level}; whether the second was accepted. */
        private boolean accepts(CompatibilityLevel level, String older, String newer) {
            registry.setSubjectCompatibility(SUBJECT, level);
            registry.register(SUBJECT, older);
            try {
                registry.register(SUBJECT, newer);
                return true;
            } catch (RegistryException e) {
                assertThat(e.httpStatus()).isEqualTo(409);
                assertThat(e.getMessage()).startsWith("Schema being registered is incompatible with an earlier schema for subject \"users-value\"");
                return false;
            }
        }

        @ParameterizedTest(name = "{0}: adding an optional field with a default is accepted")
        @CsvSource({"NONE", "BACKWARD", "BACKWARD_TRANSITIVE", "FORWARD", "FORWARD_TRANSITIVE", "FULL", "FULL_TRANSITIVE"})
        void addingAnOptionalField(CompatibilityLevel level) {
            assertThat(accepts(level, USER_ID_NAME, USER_ID_NAME_EMAIL)).isTrue();
        }

        // New readers cannot fill a required field old data lacks; old readers just skip it.
        @ParameterizedTest(name = "{0}: adding a required field accepted = {1}")
        @CsvSource({"NONE, true", "BACKWARD, false", "BACKWARD_TRANSITIVE, false", "FORWARD, true", "FORWARD_TRANSITIVE, true",
                "FULL, false", "FULL_TRANSITIVE, false"})
        void addingARequiredField(CompatibilityLevel level, boolean accepted) {
            assertThat(accepts(level, USER_ID_NAME, USER_ID_NAME_AGE)).isEqualTo(accepted);
        }

        // New readers skip the removed field; old readers miss it and have no default.
        @ParameterizedTest(name = "{0}: removing a required field accepted = {1}")
        @CsvSource({"NONE, true", "BACKWARD, true", "BACKWARD_TRANSITIVE, true", "FORWARD, false", "FORWARD_TRANSITIVE, false",
                "FULL, false", "FULL_TRANSITIVE, false"})
        void removingARequiredField(CompatibilityLevel level, boolean accepted) {
            assertThat(accepts(level, USER_ID_NAME, USER_ID)).isEqualTo(accepted);
        }

        @ParameterizedTest(name = "{0}: changing a field's type accepted = {1}")
        @CsvSource({"NONE, true", "BACKWARD, false", "FORWARD, false", "FULL, false"})
        void changingAFieldType(CompatibilityLevel level, boolean accepted) {
            assertThat(accepts(level, USER_ID_NAME, USER_ID_NAME_AS_INT)).isEqualTo(accepted);
        }

        /**
         * USER_ID -> USER_ID_NAME_DEFAULTED -> USER_ID_NAME: the last step is fine against the previous
         * version (which wrote a name) but new readers cannot read version 1 (no name, no default).
         */
        @ParameterizedTest(name = "{0}: requiring a field that version 1 lacks accepted = {1}")
        @CsvSource({"BACKWARD, true", "BACKWARD_TRANSITIVE, false"})
        void backwardTransitiveChecksEveryVersion(CompatibilityLevel level, boolean accepted) {
            registry.setSubjectCompatibility(SUBJECT, level);
            registry.register(SUBJECT, USER_ID);
            assertThat(accepts(level, USER_ID_NAME_DEFAULTED, USER_ID_NAME)).isEqualTo(accepted);
        }

        /**
         * USER_ID_NAME -> USER_ID_NAME_DEFAULTED -> USER_ID: dropping name is fine for readers of
         * version 2 (they default it) but not for readers of version 1 (no default).
         */
        @ParameterizedTest(name = "{0}: dropping a field version 1 requires accepted = {1}")
        @CsvSource({"FORWARD, true", "FORWARD_TRANSITIVE, false", "FULL, true", "FULL_TRANSITIVE, false"})
        void forwardAndFullTransitiveCheckEveryVersion(CompatibilityLevel level, boolean accepted) {
            registry.setSubjectCompatibility(SUBJECT, level);
            registry.register(SUBJECT, USER_ID_NAME);
            assertThat(accepts(level, USER_ID_NAME_DEFAULTED, USER_ID)).isEqualTo(accepted);
        }

        @Test
        void incompatibilityDetailsNameTheProblemAndTheVersion() {
            registry.register(SUBJECT, USER_ID_NAME);

            List<String> problems = registry.testCompatibility(SUBJECT, "latest", USER_ID_NAME_AGE);

            assertThat(problems).anySatisfy(p -> assertThat(p).contains("READER_FIELD_MISSING_DEFAULT_VALUE").contains("age"))
                    .contains("{oldSchemaVersion: 1}", "{compatibility: 'BACKWARD'}");
        }

        @Test
        void softDeletedVersionsAreNotCheckedAgainst() {
            registry.register(SUBJECT, USER_ID_NAME);
            registry.deleteSubject(SUBJECT);

            assertThat(registry.register(SUBJECT, USER_ID_NAME_AGE)).isEqualTo(2);
        }

        @Test
        void testingAgainstOneVersionIgnoresTheOthers() {
            registry.setSubjectCompatibility(SUBJECT, CompatibilityLevel.NONE);
            registry.register(SUBJECT, USER_ID);
            registry.register(SUBJECT, USER_ID_NAME);
            registry.setSubjectCompatibility(SUBJECT, CompatibilityLevel.BACKWARD);

            assertThat(registry.testCompatibility(SUBJECT, "2", USER_ID_NAME_AGE)).isNotEmpty();
            assertThat(registry.testCompatibility(SUBJECT, "1", USER_ID_NAME_AGE)).isNotEmpty();
            assertThat(registry.testCompatibility(SUBJECT, "2", USER_ID_NAME_EMAIL)).isEmpty();
            assertThat(registry.testCompatibility(SUBJECT, "1", USER_ID_NAME_EMAIL)).isNotEmpty();
        }

        @Test
        void anUnknownSubjectIsCompatibleWithLatestButHasNoNumberedVersion() {
            assertThat(registry.testCompatibility("nobody", "latest", USER_ID)).isEmpty();
            assertRefused(() -> registry.testCompatibility("nobody", "1", USER_ID), 404, 40401);
        }
    }

    @Nested
    class Registration {

        @Test
        void idsAndVersionsStartAtOne() {
            assertThat(registry.register(SUBJECT, USER_ID_NAME)).isEqualTo(1);
            assertThat(registry.register(SUBJECT, USER_ID_NAME_EMAIL)).isEqualTo(2);

            assertThat(registry.versions(SUBJECT)).containsExactly(1, 2);
            assertThat(registry.version(SUBJECT, "latest"))
                    .isEqualTo(new RegisteredSchema(SUBJECT, 2, 2, canonical(USER_ID_NAME_EMAIL)));
        }

        @Test
        void registeringTheSameSchemaAgainReturnsItsIdWithoutANewVersion() {
            int id = registry.register(SUBJECT, USER_ID_NAME);
            String reformatted = "{ \"fields\": [{\"type\":\"long\",\"name\":\"id\"}, {\"name\":\"name\",\"type\":\"string\"}],"
                    + " \"namespace\":\"dev.pinfeed.test\", \"name\":\"User\", \"type\":\"record\" }";

            assertThat(registry.register(SUBJECT, reformatted)).isEqualTo(id);
            assertThat(registry.versions(SUBJECT)).containsExactly(1);
        }

        @Test
        void theSameSchemaUnderAnotherSubjectGetsTheSameId() {
            int id = registry.register(SUBJECT, USER_ID_NAME);

            assertThat(registry.register("other-value", USER_ID_NAME)).isEqualTo(id);
            assertThat(registry.versionsOfId(id)).extracting(RegisteredSchema::subject).containsExactly("other-value", SUBJECT);
            assertThat(registry.version("other-value", "1").id()).isEqualTo(id);
        }

        @Test
        void idsAreNeverReusedAndADeletedSchemaKeepsItsId() {
            int first = registry.register(SUBJECT, USER_ID);
            registry.deleteSubject(SUBJECT);

            assertThat(registry.register("other-value", USER_ID_NAME)).isEqualTo(first + 1);
            assertThat(registry.register(SUBJECT, USER_ID)).isEqualTo(first);
            assertThat(registry.versions(SUBJECT)).containsExactly(2);
        }

        @Test
        void invalidAvroIsRefusedWith42201() {
            assertRefused(() -> registry.register(SUBJECT, "{\"type\":\"record\""), 422, 42201);
            assertRefused(() -> registry.register(SUBJECT, AvroSchemas.json("{'type':'Unknown'}")), 422, 42201);
            assertRefused(() -> registry.register(SUBJECT, AvroSchemas.json(
                    "{'type':'record','name':'R','fields':[{'name':'n','type':'int','default':'not a number'}]}")), 422, 42201);
            assertRefused(() -> registry.register(SUBJECT, " "), 422, 42201);
            assertThat(registry.subjects()).isEmpty();
        }

        @Test
        void lookupFindsTheVersionHoldingASchema() {
            registry.register(SUBJECT, USER_ID_NAME);
            registry.register(SUBJECT, USER_ID_NAME_EMAIL);

            assertThat(registry.lookup(SUBJECT, USER_ID_NAME)).isEqualTo(new RegisteredSchema(SUBJECT, 1, 1, canonical(USER_ID_NAME)));
            assertRefused(() -> registry.lookup(SUBJECT, USER_ID), 404, 40403);
            assertRefused(() -> registry.lookup("nobody", USER_ID), 404, 40401);
        }

        @Test
        void unknownSubjectsVersionsAndIdsAreNotFound() {
            registry.register(SUBJECT, USER_ID);

            assertRefused(() -> registry.versions("nobody"), 404, 40401);
            assertRefused(() -> registry.version("nobody", "latest"), 404, 40401);
            assertRefused(() -> registry.version(SUBJECT, "2"), 404, 40402);
            assertRefused(() -> registry.version(SUBJECT, "0"), 422, 42202);
            assertRefused(() -> registry.version(SUBJECT, "one"), 422, 42202);
            assertRefused(() -> registry.schemaById(7), 404, 40403);
        }

        @Test
        void aFailedAppendChangesNothing() {
            SchemaLog failing = new SchemaLog() {
                @Override
                public void append(SchemaLogRecord record) {
                    throw new SchemaLogException("disk full", null);
                }

                @Override
                public void replay(Consumer<SchemaLogRecord> sink) {
                }
            };
            SchemaRegistry unlucky = SchemaRegistry.replaying(failing, CompatibilityLevel.BACKWARD);

            assertThatThrownBy(() -> unlucky.register(SUBJECT, USER_ID)).isInstanceOf(SchemaLog.SchemaLogException.class);
            assertThat(unlucky.subjects()).isEmpty();
            assertRefused(() -> unlucky.schemaById(1), 404, 40403);
        }
    }

    @Nested
    class SoftDelete {

        @Test
        void deletingASubjectHidesItButKeepsItsIds() {
            int id = registry.register(SUBJECT, USER_ID_NAME);
            registry.register(SUBJECT, USER_ID_NAME_EMAIL);

            assertThat(registry.deleteSubject(SUBJECT)).containsExactly(1, 2);

            assertThat(registry.subjects()).isEmpty();
            assertRefused(() -> registry.versions(SUBJECT), 404, 40401);
            assertRefused(() -> registry.deleteSubject(SUBJECT), 404, 40401);
            assertThat(registry.schemaById(id)).isEqualTo(canonical(USER_ID_NAME));
            assertThat(registry.versionsOfId(id)).isEmpty();
        }

        @Test
        void versionNumbersContinueAfterASubjectIsDeleted() {
            registry.register(SUBJECT, USER_ID_NAME);
            registry.deleteSubject(SUBJECT);

            registry.register(SUBJECT, USER_ID_NAME_EMAIL);

            assertThat(registry.versions(SUBJECT)).containsExactly(2);
        }

        @Test
        void deletingTheLatestVersionMakesThePreviousOneLatest() {
            registry.register(SUBJECT, USER_ID_NAME);
            registry.register(SUBJECT, USER_ID_NAME_EMAIL);

            assertThat(registry.deleteVersion(SUBJECT, "latest")).isEqualTo(2);

            assertThat(registry.version(SUBJECT, "latest").version()).isEqualTo(1);
            assertThat(registry.versions(SUBJECT)).containsExactly(1);
            assertRefused(() -> registry.version(SUBJECT, "2"), 404, 40402);
            assertRefused(() -> registry.lookup(SUBJECT, USER_ID_NAME_EMAIL), 404, 40403);
            assertRefused(() -> registry.deleteVersion(SUBJECT, "2"), 404, 40402);
        }
    }

    @Nested
    class Config {

        @Test
        void theDefaultLevelAppliesUntilChanged() {
            SchemaRegistry fullByDefault = SchemaRegistry.replaying(new InMemorySchemaLog(), CompatibilityLevel.FULL);
            assertThat(fullByDefault.globalCompatibility()).isEqualTo(CompatibilityLevel.FULL);

            fullByDefault.setGlobalCompatibility(CompatibilityLevel.NONE);

            assertThat(fullByDefault.globalCompatibility()).isEqualTo(CompatibilityLevel.NONE);
            assertThat(fullByDefault.effectiveCompatibility(SUBJECT)).isEqualTo(CompatibilityLevel.NONE);
        }

        @Test
        void aSubjectOverrideWinsUntilCleared() {
            registry.setSubjectCompatibility(SUBJECT, CompatibilityLevel.FORWARD);
            assertThat(registry.effectiveCompatibility(SUBJECT)).isEqualTo(CompatibilityLevel.FORWARD);
            assertThat(registry.effectiveCompatibility("other")).isEqualTo(CompatibilityLevel.BACKWARD);

            assertThat(registry.clearSubjectCompatibility(SUBJECT)).isEqualTo(CompatibilityLevel.FORWARD);

            assertThat(registry.subjectCompatibility(SUBJECT)).isEmpty();
            assertThat(registry.effectiveCompatibility(SUBJECT)).isEqualTo(CompatibilityLevel.BACKWARD);
            assertRefused(() -> registry.clearSubjectCompatibility(SUBJECT), 404, 40408);
        }

        @Test
        void levelNamesParseCaseInsensitivelyAndAnythingElseIs42203() {
            assertThat(CompatibilityLevel.parse("full_transitive")).isEqualTo(CompatibilityLevel.FULL_TRANSITIVE);
            assertRefused(() -> CompatibilityLevel.parse("SIDEWAYS"), 422, 42203);
            assertRefused(() -> CompatibilityLevel.parse(null), 422, 42203);
        }
    }

    @Test
    void replayingTheLogRebuildsTheSameState() {
        registry.register(SUBJECT, USER_ID_NAME);
        registry.register(SUBJECT, USER_ID_NAME_EMAIL);
        registry.register("other-value", USER_ID_NAME);
        registry.register("gone-value", USER_ID);
        registry.deleteSubject("gone-value");
        registry.deleteVersion(SUBJECT, "1");
        registry.setGlobalCompatibility(CompatibilityLevel.FULL);
        registry.setSubjectCompatibility("other-value", CompatibilityLevel.NONE);
        registry.setSubjectCompatibility(SUBJECT, CompatibilityLevel.FORWARD);
        registry.clearSubjectCompatibility(SUBJECT);

        SchemaRegistry restarted = SchemaRegistry.replaying(log.reopen(), CompatibilityLevel.BACKWARD);

        assertThat(stateOf(restarted)).isEqualTo(stateOf(registry)).isNotEmpty();
        // The id counter is rebuilt too: the next new schema gets the same id on both.
        assertThat(restarted.register("new-value", USER_ID_NAME_AGE)).isEqualTo(4);
    }

    /** Everything the public API shows, for comparing two registries. */
    private static Map<String, Object> stateOf(SchemaRegistry registry) {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("global", registry.globalCompatibility());
        for (String subject : List.of(SUBJECT, "other-value", "gone-value")) {
            state.put(subject + " config", registry.subjectCompatibility(subject));
        }
        state.put("subjects", registry.subjects());
        for (String subject : registry.subjects()) {
            List<RegisteredSchema> versions = new ArrayList<>();
            registry.versions(subject).forEach(v -> versions.add(registry.version(subject, v.toString())));
            state.put(subject, versions);
        }
        for (int id = 1; id <= 3; id++) {
            state.put("id " + id, registry.schemaById(id) + registry.versionsOfId(id));
        }
        return state;
    }
}
