package dev.pinfeed.canonicalstore.reads;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pinfeed.canonicalstore.CanonicalLayout.Json;
import dev.pinfeed.canonicalstore.CanonicalLayout.Mapping;
import dev.pinfeed.idallocator.ObjectType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The canonical store in memory, for tests of what reads it (feed-service's routes). Held to the MySQL
 * store by {@code CanonicalReadsContract}, which both pass.
 */
public final class InMemoryCanonicalReads extends CanonicalRowReads implements CanonicalSeed {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** A mapping row: target id, sequence, live (active / liked), custom position. */
    private static final class Link {
        long sequence;
        boolean live = true;
        Integer position;

        Link(long sequence) {
            this.sequence = sequence;
        }
    }

    private final Map<ObjectType, Map<Long, String>> objects = new EnumMap<>(ObjectType.class);
    private final Map<Mapping, Map<Long, Map<Long, Link>>> mappings = new EnumMap<>(Mapping.class);
    private final Map<String, Long> usernames = new HashMap<>();

    @Override
    public synchronized void user(long id, String username, String displayName, long createdAt) {
        put(ObjectType.USER, id, Data.user(id, username, displayName, createdAt));
        usernames.putIfAbsent(username, id);
    }

    @Override
    public synchronized void board(long id, long ownerId, String name, String description, long createdAt) {
        put(ObjectType.BOARD, id, Data.board(id, ownerId, name, description, createdAt));
        link(Mapping.USER_HAS_BOARDS, ownerId, id, createdAt);
    }

    @Override
    public synchronized void pin(long id, long boardId, long authorId, String details, String link, String imageUrl, long createdAt) {
        put(ObjectType.PIN, id, Data.pin(id, boardId, authorId, details, link, imageUrl, createdAt));
        link(Mapping.BOARD_HAS_PINS, boardId, id, createdAt);
        link(Mapping.USER_HAS_PINS, authorId, id, createdAt);
    }

    @Override
    public synchronized void interest(long id, String name, long createdAt) {
        put(ObjectType.INTEREST, id, Data.interest(id, name, createdAt));
    }

    @Override
    public synchronized void tagPin(long interestId, long pinId, long createdAt) {
        link(Mapping.INTEREST_HAS_PINS, interestId, pinId, createdAt);
        String json = objects.getOrDefault(ObjectType.PIN, Map.of()).get(pinId);
        if (json == null) return;
        try {
            ObjectNode o = (ObjectNode) MAPPER.readTree(json);
            (o.has(Json.INTERESTS) ? (com.fasterxml.jackson.databind.node.ArrayNode) o.get(Json.INTERESTS) : o.putArray(Json.INTERESTS)).add(interestId);
            put(ObjectType.PIN, pinId, o.toString());
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public synchronized void deletePin(long pinId) {
        String json = objects.get(ObjectType.PIN).get(pinId);
        try {
            ObjectNode o = (ObjectNode) MAPPER.readTree(json);
            o.put(Json.ACTIVE, false);
            put(ObjectType.PIN, pinId, o.toString());
            rows(Mapping.BOARD_HAS_PINS, o.path(Json.BOARD_ID).asLong()).get(pinId).live = false;
            rows(Mapping.USER_HAS_PINS, o.path(Json.AUTHOR_ID).asLong()).get(pinId).live = false;
            mappings.getOrDefault(Mapping.INTEREST_HAS_PINS, Map.of()).values().forEach(pins -> {
                if (pins.containsKey(pinId)) pins.get(pinId).live = false;
            });
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public synchronized void comment(long id, long pinId, long authorId, String text, long createdAt) {
        put(ObjectType.COMMENT, id, Data.comment(id, pinId, authorId, text, createdAt));
        link(Mapping.PIN_HAS_COMMENTS, pinId, id, createdAt);
    }

    @Override
    public synchronized void deleteComment(long commentId) {
        ObjectNode o = deactivated(ObjectType.COMMENT, commentId);
        rows(Mapping.PIN_HAS_COMMENTS, o.path(Json.PIN_ID).asLong()).get(commentId).live = false;
    }

    /** The object's JSON with {@code "active": false}, stored. */
    private ObjectNode deactivated(ObjectType type, long id) {
        try {
            ObjectNode o = (ObjectNode) MAPPER.readTree(objects.get(type).get(id));
            o.put(Json.ACTIVE, false);
            put(type, id, o.toString());
            return o;
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public synchronized void like(long userId, long pinId, long at, boolean liked) {
        link(Mapping.USER_LIKES_PINS, userId, pinId, at).live = liked;
        link(Mapping.PIN_LIKED_BY_USERS, pinId, userId, at).live = liked;
    }

    @Override
    public synchronized void reorder(long boardId, List<Long> pinIds) {
        Map<Long, Link> rows = rows(Mapping.BOARD_HAS_PINS, boardId);
        rows.values().forEach(l -> l.position = null);
        for (int i = 0; i < pinIds.size(); i++) {
            Link l = rows.get(pinIds.get(i));
            if (l != null) l.position = i;
        }
    }

    private void put(ObjectType type, long id, String json) {
        objects.computeIfAbsent(type, t -> new HashMap<>()).put(id, json);
    }

    private Map<Long, Link> rows(Mapping mapping, long from) {
        return mappings.computeIfAbsent(mapping, m -> new HashMap<>()).computeIfAbsent(from, f -> new HashMap<>());
    }

    private Link link(Mapping mapping, long from, long to, long sequence) {
        Link l = rows(mapping, from).computeIfAbsent(to, t -> new Link(sequence));
        l.sequence = sequence;
        return l;
    }

    // ---- CanonicalRows

    @Override
    public synchronized Map<Long, String> objects(ObjectType type, Collection<Long> ids) {
        Map<Long, String> out = new HashMap<>();
        Map<Long, String> all = objects.getOrDefault(type, Map.of());
        for (Long id : ids) if (all.containsKey(id)) out.put(id, all.get(id));
        return out;
    }

    @Override
    public synchronized Map<Long, PinRow> pins(Collection<Long> pinIds) {
        Map<Long, PinRow> out = new HashMap<>();
        objects(ObjectType.PIN, pinIds).forEach((id, json) -> out.put(id,
                new PinRow(json, count(Mapping.PIN_LIKED_BY_USERS, id), count(Mapping.PIN_HAS_COMMENTS, id),
                        count(Mapping.PIN_HAS_REPINS, id))));
        return out;
    }

    @Override
    public synchronized List<ListEntry> boardPins(long boardId, BoardPinOrder order, ListEntry after, int offset, int limit) {
        return slice(Mapping.BOARD_HAS_PINS, boardId, order.comparator(), after, offset, limit);
    }

    @Override
    public synchronized List<ListEntry> newestFirst(Mapping mapping, long fromId, ListEntry after, int limit) {
        return slice(mapping, fromId, BoardPinOrder.NEWEST_FIRST, after, 0, limit);
    }

    private List<ListEntry> slice(Mapping mapping, long from, Comparator<ListEntry> order, ListEntry after, int offset, int limit) {
        List<ListEntry> all = new ArrayList<>();
        rows(mapping, from).forEach((id, l) -> {
            if (l.live) all.add(new ListEntry(id, l.sequence, mapping == Mapping.BOARD_HAS_PINS ? l.position : null));
        });
        all.sort(order);
        return all.stream().filter(e -> after == null || order.compare(e, after) > 0).skip(offset).limit(limit).toList();
    }

    @Override
    public synchronized long count(Mapping mapping, long fromId) {
        return rows(mapping, fromId).values().stream().filter(l -> l.live).count();
    }

    @Override
    public synchronized OptionalLong userIdByUsername(String username) {
        Long id = usernames.get(username);
        return id == null ? OptionalLong.empty() : OptionalLong.of(id);
    }
}
