package dev.pinfeed.canonicalstore.reads;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.canonicalstore.CanonicalLayout.Json;
import java.time.Instant;
import java.util.Optional;

/** The objects' stored JSON ({@code data}, field names per {@link Json}) read into objects. */
public final class CanonicalObjects {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private CanonicalObjects() {}

    public static CanonicalUser user(String json) {
        JsonNode o = tree(json);
        return new CanonicalUser(o.path(Json.ID).asLong(), text(o, Json.USERNAME), text(o, Json.DISPLAY_NAME), createdAt(o));
    }

    public static CanonicalBoard board(String json) {
        JsonNode o = tree(json);
        return new CanonicalBoard(o.path(Json.ID).asLong(), o.path(Json.OWNER_ID).asLong(), text(o, Json.NAME), text(o, Json.DESCRIPTION),
                createdAt(o));
    }

    /** Empty for a deleted pin ({@code "active": false}), including the placeholder of a delete that came before its create. */
    public static Optional<CanonicalPin> pin(String json, long likes) {
        return pin(json, likes, 0, 0);
    }

    /** {@link #pin(String, long)} with the pin's comment and repin counts. */
    public static Optional<CanonicalPin> pin(String json, long likes, long comments, long repins) {
        JsonNode o = tree(json);
        if (!live(o)) return Optional.empty();
        Long parent = o.hasNonNull(Json.PARENT_PIN_ID) ? o.get(Json.PARENT_PIN_ID).asLong() : null;
        java.util.List<Long> interests = new java.util.ArrayList<>();
        o.path(Json.INTERESTS).forEach(i -> interests.add(i.asLong()));
        return Optional.of(new CanonicalPin(o.path(Json.ID).asLong(), o.path(Json.BOARD_ID).asLong(), o.path(Json.AUTHOR_ID).asLong(),
                text(o, Json.DETAILS), text(o, Json.LINK), text(o, Json.IMAGE_URL), createdAt(o), likes, comments, parent, repins, interests));
    }

    public static CanonicalInterest interest(String json) {
        JsonNode o = tree(json);
        return new CanonicalInterest(o.path(Json.ID).asLong(), text(o, Json.NAME), createdAt(o));
    }

    /** Empty for a deleted comment, including the placeholder of a delete that came before its create (as {@link #pin}). */
    public static Optional<CanonicalComment> comment(String json) {
        JsonNode o = tree(json);
        if (!live(o)) return Optional.empty();
        return Optional.of(new CanonicalComment(o.path(Json.ID).asLong(), o.path(Json.PIN_ID).asLong(), o.path(Json.AUTHOR_ID).asLong(),
                text(o, Json.TEXT), createdAt(o)));
    }

    /** Neither soft-deleted ({@code "active": false}) nor a delete's placeholder (no {@code createdAt}). */
    private static boolean live(JsonNode o) {
        return o.path(Json.ACTIVE).asBoolean(true) && o.has(Json.CREATED_AT);
    }

    private static JsonNode tree(String json) {
        try {
            JsonNode node = MAPPER.readTree(json);
            if (node == null || !node.isObject()) throw new IllegalStateException("stored object is not a JSON object: " + json);
            return node;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored object is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static String text(JsonNode o, String field) {
        JsonNode v = o.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    /** Epoch milliseconds as the materializer writes it; an ISO-8601 instant is read too. */
    private static Instant createdAt(JsonNode o) {
        JsonNode v = o.path(Json.CREATED_AT);
        if (v.isNumber()) return Instant.ofEpochMilli(v.asLong());
        return v.isTextual() ? Instant.parse(v.asText()) : null;
    }
}
