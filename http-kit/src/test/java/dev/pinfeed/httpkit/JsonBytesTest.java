package dev.pinfeed.httpkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Answers serialized through a thread's scratch buffer: each answer exactly its own bytes, whatever came before. */
class JsonBytesTest {

    private static String json(Object value) throws JsonProcessingException {
        return new String(Json.bytes(value), StandardCharsets.UTF_8);
    }

    @Test
    void aShortAnswerAfterALongOneIsOnlyItself() throws Exception {
        Map<String, Object> longOne = Map.of("items", List.of("x".repeat(40_000), "y".repeat(40_000)));
        assertThat(Json.bytes(longOne)).isEqualTo(Json.MAPPER.writeValueAsBytes(longOne));

        assertThat(json(Map.of("cursor", "c1"))).isEqualTo("{\"cursor\":\"c1\"}");
        assertThat(json(List.of())).isEqualTo("[]");
    }

    @Test
    void anAnswerLargerThanTheKeptScratchIsWhole() throws Exception {
        String big = "z".repeat(Json.SCRATCH_KEPT * 2);
        assertThat(json(Map.of("big", big))).isEqualTo("{\"big\":\"" + big + "\"}");
        assertThat(json(Map.of("after", 1))).isEqualTo("{\"after\":1}");
    }

    @Test
    void aFailedAnswerLeavesTheScratchUsable() throws Exception {
        assertThatThrownBy(() -> Json.bytes(new Object())).isInstanceOf(JsonProcessingException.class);
        assertThatThrownBy(() -> Json.bytes(Map.of("bad", new Failing()))).isInstanceOf(JsonProcessingException.class);

        assertThat(json(Map.of("ok", true))).isEqualTo("{\"ok\":true}");
    }

    @Test
    void aSerializerThatSerializesAnAnswerItselfGetsItsOwnBytes() throws Exception {
        assertThat(json(List.of(new Nested("inner"), "outer"))).isEqualTo("[\"{\\\"n\\\":\\\"inner\\\"}\",\"outer\"]");
    }

    @Test
    void responsesAreSerializedThroughIt() {
        Response response = Response.json(200, Map.of("id", "1"));
        assertThat(new String(response.bodyBytes(), StandardCharsets.UTF_8)).isEqualTo("{\"id\":\"1\"}");
    }

    @JsonSerialize(using = FailingSerializer.class)
    static final class Failing {}

    static final class FailingSerializer extends StdSerializer<Failing> {
        FailingSerializer() {
            super(Failing.class);
        }

        @Override
        public void serialize(Failing value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString("half");
            throw new JsonProcessingException("cannot") {};
        }
    }

    /** Writes, as a string, its own answer {"n": name} serialized by {@link Json#bytes}. */
    @JsonSerialize(using = NestedSerializer.class)
    record Nested(String name) {}

    static final class NestedSerializer extends StdSerializer<Nested> {
        NestedSerializer() {
            super(Nested.class);
        }

        @Override
        public void serialize(Nested value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString(new String(Json.bytes(Map.of("n", value.name())), StandardCharsets.UTF_8));
        }
    }
}
