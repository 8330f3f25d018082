package dev.pinfeed.eventsschema;

/** The cache in front of the in-memory registry keeps the port's contract (a 404 stays a 404 with Confluent's code). */
class CachingSchemaRegistryClientContractTest extends SchemaRegistryClientContract {

    private final SchemaRegistryClient client = new CachingSchemaRegistryClient(new InMemorySchemaRegistryClient());
    private int subjects;

    @Override
    SchemaRegistryClient client() {
        return client;
    }

    @Override
    String freshSubject() {
        return "subject-" + ++subjects;
    }
}
