package dev.pinfeed.eventsschema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * What every {@link SchemaRegistryClient} must do, run against the in-memory fake (unit) and the
 * HTTP client on the real dev registry (IT), so the fake cannot drift from the registry.
 * Subjects come from {@link #freshSubject()}: the real registry keeps state between runs.
 */
abstract class SchemaRegistryClientContract {

    /** A record schema with a version-specific shape; {@code extraField} as given (JSON field or empty). */
    private static Schema contractRecord(String extraField) {
        return new Schema.Parser().parse("""
                {"type": "record", "name": "ContractRecord", "namespace": "dev.pinfeed.events.contract",
                 "fields": [{"name": "id", "type": "long"}%s]}
                """.formatted(extraField));
    }

    static final Schema V1 = contractRecord("");
    static final Schema V2_OPTIONAL_FIELD = contractRecord(", {\"name\": \"note\", \"type\": [\"null\", \"string\"], \"default\": null}");
    static final Schema V2_REQUIRED_FIELD = contractRecord(", {\"name\": \"note\", \"type\": \"string\"}");

    /** The client under test; a fresh subject must start at BACKWARD or BACKWARD_TRANSITIVE (tests set others explicitly). */
    abstract SchemaRegistryClient client();

    abstract String freshSubject();

    @Test
    void registeringTheSameSchemaTwiceGivesTheSameId() {
        String subject = freshSubject();
        int id = client().register(subject, V1);
        assertThat(client().register(subject, V1)).isEqualTo(id);
    }

    @Test
    void idsAreGlobalAcrossSubjects() {
        assertThat(client().register(freshSubject(), V1)).isEqualTo(client().register(freshSubject(), V1));
    }

    @Test
    void schemaByIdReturnsTheRegisteredSchema() {
        int id = client().register(freshSubject(), V2_OPTIONAL_FIELD);
        assertThat(client().schemaById(id)).isEqualTo(V2_OPTIONAL_FIELD);
    }

    @Test
    void unknownIdIsNotFound() {
        assertThatThrownBy(() -> client().schemaById(Integer.MAX_VALUE))
                .isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                    assertThat(e.httpStatus()).isEqualTo(404);
                    assertThat(e.errorCode()).isEqualTo(40403);
                });
    }

    @Test
    void addingAnOptionalFieldIsCompatibleAndGetsANewId() {
        String subject = freshSubject();
        int v1 = client().register(subject, V1);
        assertThat(client().isCompatible(subject, V2_OPTIONAL_FIELD)).isTrue();
        assertThat(client().register(subject, V2_OPTIONAL_FIELD)).isNotEqualTo(v1);
    }

    @Test
    void addingARequiredFieldIsIncompatibleAndRefusedWith409() {
        String subject = freshSubject();
        client().register(subject, V1);
        assertThat(client().isCompatible(subject, V2_REQUIRED_FIELD)).isFalse();
        assertThatThrownBy(() -> client().register(subject, V2_REQUIRED_FIELD))
                .isInstanceOfSatisfying(SchemaRegistryException.class,
                        e -> assertThat(e.httpStatus()).isEqualTo(SchemaRegistryException.INCOMPATIBLE));
    }

    @Test
    void anySchemaIsCompatibleWithASubjectWithoutVersions() {
        assertThat(client().isCompatible(freshSubject(), V2_REQUIRED_FIELD)).isTrue();
    }

    @Test
    void compatibilityNoneAllowsAnyChange() {
        String subject = freshSubject();
        client().register(subject, V1);
        client().setCompatibility(subject, "NONE");
        assertThat(client().isCompatible(subject, V2_REQUIRED_FIELD)).isTrue();
        assertThat(client().register(subject, V2_REQUIRED_FIELD)).isPositive();
    }

    @Test
    void transitiveCompatibilityChecksEveryEarlierVersion() {
        // v3 requires "note": it can read v2 (which has it) but not v1 (which lacks it).
        String subject = freshSubject();
        client().register(subject, V1);
        client().setCompatibility(subject, "NONE");
        client().register(subject, V2_REQUIRED_FIELD);
        Schema v3 = contractRecord(", {\"name\": \"note\", \"type\": \"string\"}, {\"name\": \"n\", \"type\": \"int\", \"default\": 0}");

        client().setCompatibility(subject, "BACKWARD");
        assertThat(client().isCompatible(subject, v3)).isTrue();
        client().setCompatibility(subject, "BACKWARD_TRANSITIVE");
        assertThat(client().isCompatible(subject, v3)).isFalse();
    }
}
