package dev.pinfeed.eventsschema;

import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinLiked;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class CachingSchemaRegistryClientTest {

    /** Records every call that would be a network round trip. */
    private static final class CountingClient implements SchemaRegistryClient {
        final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
        final List<String> calls = new ArrayList<>();

        @Override public int register(String subject, Schema schema) { calls.add("register " + subject); return registry.register(subject, schema); }
        @Override public Schema schemaById(int id) { calls.add("schemaById " + id); return registry.schemaById(id); }
        @Override public boolean isCompatible(String subject, Schema schema) { calls.add("isCompatible " + subject); return registry.isCompatible(subject, schema); }
        @Override public void setCompatibility(String subject, String level) { calls.add("setCompatibility " + subject); registry.setCompatibility(subject, level); }
    }

    private final CountingClient remote = new CountingClient();
    private final CachingSchemaRegistryClient cache = new CachingSchemaRegistryClient(remote);

    @Test
    void registersEachSubjectAndSchemaOnce() {
        Schema schema = PinCreated.getClassSchema();
        int id = cache.register("a", schema);
        assertThat(cache.register("a", schema)).isEqualTo(id);
        assertThat(cache.register("b", schema)).isEqualTo(id);
        assertThat(remote.calls).containsExactly("register a", "register b");
    }

    @Test
    void aRegisteredSchemaIsKnownByIdWithoutAFetch() {
        int id = cache.register("a", PinCreated.getClassSchema());
        assertThat(cache.schemaById(id)).isEqualTo(PinCreated.getClassSchema());
        assertThat(remote.calls).containsExactly("register a");
    }

    @Test
    void fetchesEachIdOnce() {
        int id = remote.registry.register("a", PinLiked.getClassSchema());
        cache.schemaById(id);
        cache.schemaById(id);
        assertThat(remote.calls).containsExactly("schemaById " + id);
    }

    @Test
    void compatibilityQuestionsAlwaysGoToTheRegistry() {
        cache.isCompatible("a", PinLiked.getClassSchema());
        cache.setCompatibility("a", "NONE");
        cache.isCompatible("a", PinLiked.getClassSchema());
        assertThat(remote.calls).containsExactly("isCompatible a", "setCompatibility a", "isCompatible a");
    }
}
