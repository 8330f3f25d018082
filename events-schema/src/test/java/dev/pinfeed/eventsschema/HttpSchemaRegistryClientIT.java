package dev.pinfeed.eventsschema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The contract against the shared dev registry over HTTP. */
@ExtendWith(StackExtension.class)
class HttpSchemaRegistryClientIT extends SchemaRegistryClientContract {

    private TestStack stack;
    private SchemaRegistryClient client;

    @BeforeEach
    void connect(TestStack stack) {
        this.stack = stack;
        this.client = HttpSchemaRegistryClient.from(stack.config());
    }

    @Test
    void theStacksRegistryRefusesAClientWithoutCredentials() {
        assertThat(HttpSchemaRegistryClient.authorization(stack.config())).as("the local stack's registry credentials").isPresent();
        SchemaRegistryClient anonymous = new HttpSchemaRegistryClient(stack.config().schemaRegistryUrl());
        Schema schema = SchemaBuilder.record("Probe").namespace("dev.pinfeed.test").fields().requiredLong("id").endRecord();
        assertThatThrownBy(() -> anonymous.register(stack.uniqueName("anon"), schema))
                .isInstanceOf(StoreUnavailableException.class).hasMessageContaining("401");
        assertThat(client.register(stack.uniqueName("auth"), schema)).as("with the configured credentials").isPositive();
    }

    @Override
    SchemaRegistryClient client() {
        return client;
    }

    @Override
    String freshSubject() {
        return stack.uniqueName("subj");
    }
}
