package dev.pinfeed.eventsschema;

import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinLiked;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
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

    /** A clock the test moves. */
    private static final class SteppingClock extends Clock {
        Instant now = Instant.parse("2026-11-28T12:00:00Z");

        @Override public ZoneId getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(ZoneId zone) { return this; }
        @Override public Instant instant() { return now; }
    }

    private static final Duration NOT_FOUND_FOR = Duration.ofSeconds(10);

    private final CountingClient remote = new CountingClient();
    private final SteppingClock clock = new SteppingClock();
    private final CachingSchemaRegistryClient cache = new CachingSchemaRegistryClient(remote, clock, NOT_FOUND_FOR);

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

    @Test
    void anUnknownIdCostsOneRequestPerIntervalNotOnePerRecord() {
        for (int record = 0; record < 1000; record++) {
            assertThatThrownBy(() -> cache.schemaById(77)).isInstanceOfSatisfying(SchemaRegistryException.class, e -> {
                assertThat(e.httpStatus()).isEqualTo(404);
                assertThat(e.errorCode()).isEqualTo(40403);
            });
            clock.now = clock.now.plusMillis(9); // 1000 records over 9 s: within one interval
        }
        assertThat(remote.calls).containsExactly("schemaById 77");

        clock.now = clock.now.plus(NOT_FOUND_FOR);
        assertThatThrownBy(() -> cache.schemaById(77)).isInstanceOf(SchemaRegistryException.class);
        assertThat(remote.calls).containsExactly("schemaById 77", "schemaById 77");
    }

    @Test
    void anIdRegisteredAfterA404IsFoundOnceTheIntervalIsOver() {
        assertThatThrownBy(() -> cache.schemaById(1)).isInstanceOf(SchemaRegistryException.class);
        int id = remote.registry.register("a", PinLiked.getClassSchema()); // by another process: ids start at 1
        assertThat(id).isEqualTo(1);

        assertThatThrownBy(() -> cache.schemaById(1)).isInstanceOf(SchemaRegistryException.class);
        clock.now = clock.now.plus(NOT_FOUND_FOR);
        assertThat(cache.schemaById(1)).isEqualTo(PinLiked.getClassSchema());
        assertThat(remote.calls).containsExactly("schemaById 1", "schemaById 1");
    }

    @Test
    void unknownIdsRememberedAreBounded() {
        int many = CachingSchemaRegistryClient.MAX_NOT_FOUND + 10;
        for (int id = 1000; id < 1000 + many; id++) {
            int unknown = id;
            assertThatThrownBy(() -> cache.schemaById(unknown)).isInstanceOf(SchemaRegistryException.class);
        }
        remote.calls.clear();
        for (int id = 1000; id < 1000 + many; id++) {
            int unknown = id;
            assertThatThrownBy(() -> cache.schemaById(unknown)).isInstanceOf(SchemaRegistryException.class);
        }
        // The first MAX_NOT_FOUND are remembered; the ten beyond the bound are asked again.
        assertThat(remote.calls).hasSize(10);
    }
}
