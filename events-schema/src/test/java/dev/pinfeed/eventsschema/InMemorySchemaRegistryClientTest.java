package dev.pinfeed.eventsschema;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class InMemorySchemaRegistryClientTest extends SchemaRegistryClientContract {

    private final InMemorySchemaRegistryClient client = new InMemorySchemaRegistryClient();
    private int subjects;

    @Override
    SchemaRegistryClient client() {
        return client;
    }

    @Override
    String freshSubject() {
        return "subject-" + ++subjects;
    }

    @Test
    void refusesAnUnknownCompatibilityLevel() {
        assertThatThrownBy(() -> client.setCompatibility("s", "SOMETIMES")).isInstanceOf(SchemaRegistryException.class)
                .hasMessageContaining("42203");
    }
}
