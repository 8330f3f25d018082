package dev.pinfeed.ingestapi.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pinfeed.ingestapi.core.IngestRejection.Reason;
import dev.pinfeed.ingestapi.core.IngestService.Outcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What one ingest request produced, in domain terms: one item for a single write, one per event of a
 * batch, each accepted with its ids or rejected with the reason. This, not an HTTP answer, is what
 * {@link IdempotentIngest} stores for a retry under the same Idempotency-Key; this class owns its
 * stored form ({@link #serialize()}).
 */
public record IngestResult(List<Item> items) {

    /** Version of the stored form, so a later layout can still read records written by this one. */
    private static final int FORMAT = 1;
    private static final ObjectMapper JSON = new ObjectMapper();

    public IngestResult {
        items = List.copyOf(items);
    }

    /**
     * One command's result. {@code eventType} is the command's event type, or the type the event
     * claimed (or {@code "unknown"}) when it could not be parsed; {@code createdId} is 0 unless the
     * command created an object.
     */
    public record Item(String eventType, long createdId, long eventId, IngestRejection rejection) {
        public boolean accepted() {
            return rejection == null;
        }

        public static Item of(Outcome outcome) {
            return new Item(outcome.command().eventType(), outcome.createdId(), outcome.eventId(), outcome.rejection());
        }

        public static Item rejected(String eventType, IngestRejection rejection) {
            return new Item(eventType, 0, 0, rejection);
        }
    }

    public static IngestResult of(Item item) {
        return new IngestResult(List.of(item));
    }

    public int acceptedCount() {
        return (int) items.stream().filter(Item::accepted).count();
    }

    /**
     * Running the request again is safe and may turn out differently: nothing was accepted, at least
     * one command failed for a transient reason (OVERLOADED, UNAVAILABLE: nothing published) and none
     * failed for good (invalid, unknown, conflict, forbidden) or was left unconfirmed (it may be in
     * the log: running it again could publish it twice).
     */
    public boolean retryable() {
        boolean anyTransient = false;
        for (Item item : items) {
            if (item.accepted() || !item.rejection().retryable()) return false;
            anyTransient = true;
        }
        return anyTransient;
    }

    /** The stored form: versioned JSON; ids as decimal strings (also on an unconfirmed item: the ids it was published with). */
    public String serialize() {
        ObjectNode root = JSON.createObjectNode();
        root.put("v", FORMAT);
        ArrayNode list = root.putArray("items");
        for (Item item : items) {
            ObjectNode n = list.addObject();
            n.put("type", item.eventType());
            if (item.createdId() != 0) n.put("id", Long.toString(item.createdId()));
            if (item.eventId() != 0) n.put("eventId", Long.toString(item.eventId()));
            if (!item.accepted()) {
                IngestRejection r = item.rejection();
                n.put("reason", r.reason().name());
                if (r.field() != null) n.put("field", r.field());
                n.put("detail", r.detail());
                if (r.store() != null) n.put("store", r.store());
            }
        }
        return root.toString();
    }

    /** Reads {@link #serialize()}'s form back; anything else is a bug (or a record of an unknown layout) and throws. */
    public static IngestResult deserialize(String stored) {
        if (stored == null) throw new IllegalStateException("a stored ingest result has no result field (an older layout?)");
        JsonNode root;
        try {
            root = JSON.readTree(stored);
        } catch (IOException e) {
            throw new UncheckedIOException("a stored ingest result is not JSON", e);
        }
        if (root == null || root.path("v").asInt() != FORMAT || !root.path("items").isArray()) {
            throw new IllegalStateException("a stored ingest result has an unknown layout: " + abbreviate(stored));
        }
        List<Item> items = new ArrayList<>();
        for (JsonNode n : root.get("items")) {
            String type = n.path("type").asText();
            long createdId = n.has("id") ? Long.parseLong(n.get("id").asText()) : 0;
            long eventId = n.has("eventId") ? Long.parseLong(n.get("eventId").asText()) : 0;
            IngestRejection rejection = n.has("reason") ? IngestRejection.restored(Reason.valueOf(n.get("reason").asText()), text(n, "field"),
                    n.path("detail").asText(), text(n, "store")) : null;
            if (rejection == null && eventId == 0) throw new IllegalStateException("a stored accepted item has no eventId: " + abbreviate(stored));
            items.add(new Item(type, createdId, eventId, rejection));
        }
        return new IngestResult(items);
    }

    private static String text(JsonNode node, String name) {
        JsonNode v = node.get(name);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static String abbreviate(String s) {
        return s == null ? "null" : s.length() <= 100 ? s : s.substring(0, 100) + "...";
    }
}
