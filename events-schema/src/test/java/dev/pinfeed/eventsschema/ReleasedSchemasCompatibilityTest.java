package dev.pinfeed.eventsschema;

import dev.pinfeed.events.PinLiked;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaPairCompatibility;
import org.junit.jupiter.api.Test;

/**
 * The build-time guard: every current schema must read every released version of its record
 * (BACKWARD_TRANSITIVE, what the registry enforces), and no released record may disappear. Catches
 * an incompatible edit before a producer meets a 409 from the registry.
 */
class ReleasedSchemasCompatibilityTest {

    @Test
    void currentSchemasCanReadEveryReleasedVersion() {
        assertThat(problems(SampleEvents.schemasIn(SampleEvents.CURRENT_SCHEMAS), released())).isEmpty();
    }

    @Test
    void everyCurrentSchemaHasAReleasedVersion() {
        // Not a compatibility problem, but a forgotten copy would leave the next change unguarded.
        assertThat(released().keySet()).containsAll(
                SampleEvents.schemasIn(SampleEvents.CURRENT_SCHEMAS).stream().map(Schema::getName).toList());
    }

    @Test
    void reportsARequiredFieldAddedWithoutDefault() {
        Schema current = PinLiked.getClassSchema();
        Schema broken = new Schema.Parser().parse(current.toString().replace(
                "\"fields\":[", "\"fields\":[{\"name\":\"reason\",\"type\":\"string\"},"));

        List<String> problems = problems(List.of(broken), Map.of("PinLiked", List.of(current)));

        assertThat(problems).singleElement().asString().contains("PinLiked", "reason");
    }

    @Test
    void reportsAReleasedRecordWithoutCurrentSchema() {
        assertThat(problems(List.of(), Map.of("PinLiked", List.of(PinLiked.getClassSchema()))))
                .containsExactly("PinLiked was released but has no current schema in src/main/avro");
    }

    /** Every way {@code current} fails to read {@code releasedByName} (record simple name → released versions). */
    static List<String> problems(List<Schema> current, Map<String, List<Schema>> releasedByName) {
        Map<String, Schema> currentByName = current.stream().collect(Collectors.toMap(Schema::getName, Function.identity()));
        List<String> problems = new ArrayList<>();
        releasedByName.forEach((name, versions) -> {
            Schema reader = currentByName.get(name);
            if (reader == null) {
                problems.add(name + " was released but has no current schema in src/main/avro");
                return;
            }
            for (Schema writer : versions) {
                if (!writer.getName().equals(name)) {
                    problems.add("avro-released/" + name + " holds a schema of record " + writer.getName());
                }
                SchemaPairCompatibility result = SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
                if (result.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
                    problems.add(name + " cannot read a released version: " + result.getResult().getIncompatibilities());
                }
            }
        });
        return problems;
    }

    /** src/main/avro-released/<RecordName>/v<N>.avsc, by record name. */
    private static Map<String, List<Schema>> released() {
        try (Stream<Path> dirs = Files.list(SampleEvents.RELEASED_SCHEMAS)) {
            return dirs.filter(Files::isDirectory).collect(Collectors.toMap(
                    dir -> dir.getFileName().toString(), SampleEvents::schemasIn, (a, b) -> a, TreeMap::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
