package dev.pinfeed.httpkit;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;

/** The shared Jackson mapper: strict on input, no global inclusion tweaks on output (explicit nulls stay). */
final class Json {

    static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            // Doubles (a feed item's score) written by Schubfach, not Double.toString: the shortest form that reads back the
            // same value, at a fraction of the cost (Double.toString was a third of a feed page's serialization).
            .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
            // java.time values as ISO-8601 strings without needing jackson-datatype-jsr310.
            .addModule(new SimpleModule("pinfeed-java-time")
                    .addSerializer(Instant.class, ToStringSerializer.instance)
                    .addSerializer(LocalDate.class, ToStringSerializer.instance)
                    .addSerializer(LocalDateTime.class, ToStringSerializer.instance)
                    .addSerializer(OffsetDateTime.class, ToStringSerializer.instance)
                    .addSerializer(ZonedDateTime.class, ToStringSerializer.instance)
                    .addSerializer(Duration.class, ToStringSerializer.instance))
            .build();

    /** A scratch buffer grown past this is not kept by its thread (a rare large answer does not pin its size). */
    static final int SCRATCH_KEPT = 256 * 1024;

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private Json() {
    }

    /**
     * {@code value} serialized, written into this thread's scratch buffer and copied out once. Jackson's own
     * {@code writeValueAsBytes} grows a chain of chunks and then joins them, two to three times the body in garbage: for a
     * feed page (10 KB) most of what the request allocated, and so most of the feed-service's young collections.
     */
    static byte[] bytes(Object value) throws JsonProcessingException {
        Scratch scratch = SCRATCH.get();
        if (scratch.inUse) return MAPPER.writeValueAsBytes(value); // a serializer that serializes an answer itself
        scratch.inUse = true;
        try {
            scratch.reset();
            MAPPER.writeValue(scratch, value);
            return scratch.toByteArray();
        } catch (JsonProcessingException e) {
            throw e;
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory failed", e); // a ByteArrayOutputStream does not throw
        } finally {
            scratch.inUse = false;
            if (scratch.capacity() > SCRATCH_KEPT) SCRATCH.remove();
        }
    }

    private static final class Scratch extends ByteArrayOutputStream {
        boolean inUse;

        Scratch() {
            super(16 * 1024);
        }

        int capacity() {
            return buf.length;
        }
    }

    /** Parses a request body strictly; any failure is a 400 malformed-json problem. */
    static JsonNode parse(byte[] body) {
        if (body.length == 0) {
            throw new ProblemException(Problem.malformedJson("request body is empty; expected a JSON document"));
        }
        JsonNode node;
        try {
            node = MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw new ProblemException(Problem.malformedJson(describe(e)));
        } catch (IOException e) {
            throw new ProblemException(Problem.malformedJson(oneLine(e.getMessage(), 200)));
        }
        if (node == null || node.isMissingNode()) {
            throw new ProblemException(Problem.malformedJson("request body is blank; expected a JSON document"));
        }
        return node;
    }

    /** Jackson's message without the source dump, plus the location, on one line. */
    static String describe(JsonProcessingException e) {
        String message = oneLine(e.getOriginalMessage(), 240);
        JsonLocation location = e.getLocation();
        if (location != null && location.getLineNr() > 0) {
            message += " at line " + location.getLineNr() + ", column " + location.getColumnNr();
        }
        return message;
    }

    static String oneLine(String text, int max) {
        if (text == null || text.isBlank()) {
            return "";
        }
        String flat = text.strip().replaceAll("\\s+", " ");
        return flat.length() <= max ? flat : flat.substring(0, max - 3) + "...";
    }
}
