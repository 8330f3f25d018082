package dev.pinfeed.infra.schemaregistry;

import org.junit.jupiter.api.BeforeEach;

class InMemorySchemaLogTest extends SchemaLogContract {

    private InMemorySchemaLog storage;

    @BeforeEach
    void freshStorage() {
        storage = new InMemorySchemaLog();
    }

    @Override
    protected SchemaLog openLog() {
        return storage.reopen();
    }
}
