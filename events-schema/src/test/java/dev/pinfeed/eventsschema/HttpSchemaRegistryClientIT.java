package dev.pinfeed.eventsschema;

import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** The contract against the shared dev registry over HTTP. */
@ExtendWith(StackExtension.class)
class HttpSchemaRegistryClientIT extends SchemaRegistryClientContract {

    private TestStack stack;
    private SchemaRegistryClient client;

    @BeforeEach
    void connect(TestStack stack) {
        this.stack = stack;
        this.client = new HttpSchemaRegistryClient(stack.config().schemaRegistryUrl());
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
