package dev.pinfeed.canonicalstore.reads;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pinfeed.canonicalstore.CanonicalLayout.Json;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** The objects' stored JSON ({@code data}, field names per {@link Json}) read into objects. */
public final class CanonicalObjects {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int PARSED_PINS_MAX = 50_000;
    /** Pins by their exact JSON text, counts 0 (see {@link #pin(String, long, long, long)}). */
    private static final Map<String, Optional<CanonicalPin>> PARSED_PINS = new ConcurrentHashMap<>();

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

    /**
     * {@link #pin(String, long)} with the pin's comment and repin counts. The pin as its JSON reads (its counts aside) is
     * remembered by that exact text, up to {@value #PARSED_PINS_MAX} of them: a feed page hydrates 25 pins that the pages
     * before it hydrated too, and parsing their JSON again was a fifth of feed-service's time per page. Text that
     * changed is parsed anew, so nothing read differs from a parse.
     */
    public static Optional<CanonicalPin> pin(String json, long likes, long comments, long repins) {
        Optional<CanonicalPin> parsed = PARSED_PINS.get(json);
        if (parsed == null) {
            parsed = parsePin(json);
            if (PARSED_PINS.size() >= PARSED_PINS_MAX) PARSED_PINS.clear();
            PARSED_PINS.put(json, parsed);
        }
        return parsed.map(p -> new CanonicalPin(p.id(), p.boardId(), p.authorId(), p.details(), p.link(), p.imageUrl(), p.createdAt(), likes,
                comments, p.parentPinId(), repins, p.interests()));
    }

    /** The pin its JSON describes, its counts 0. */
    private static Optional<CanonicalPin> parsePin(String json) {
        JsonNode o = tree(json);
        if (!live(o)) return Optional.empty();
        Long parent = o.hasNonNull(Json.PARENT_PIN_ID) ? o.get(Json.PARENT_PIN_ID).asLong() : null;
        java.util.List<Long> interests = new java.util.ArrayList<>();
        o.path(Json.INTERESTS).forEach(i -> interests.add(i.asLong()));
        return Optional.of(new CanonicalPin(o.path(Json.ID).asLong(), o.path(Json.BOARD_ID).asLong(), o.path(Json.AUTHOR_ID).asLong(),
                text(o, Json.DETAILS), text(o, Json.LINK), text(o, Json.IMAGE_URL), createdAt(o), 0, 0, parent, 0, interests));
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
