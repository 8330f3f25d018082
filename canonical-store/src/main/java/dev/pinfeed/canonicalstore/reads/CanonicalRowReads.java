package dev.pinfeed.canonicalstore.reads;

import dev.pinfeed.canonicalstore.CanonicalLayout.Mapping;
import dev.pinfeed.idallocator.ObjectType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * {@link CanonicalReads} from {@link CanonicalRows}, the application-layer join of seed 002: a page
 * of a mapping list (ids with their sort keys, one more than asked to know whether a next page
 * exists), then the objects of those ids in one batch. Subclasses say where the rows come from
 * (MySQL, the caches in front of it, memory).
 */
public abstract class CanonicalRowReads implements CanonicalReads, CanonicalRows {

    @Override
    public Optional<CanonicalUser> user(long userId) {
        return Optional.ofNullable(objects(ObjectType.USER, List.of(userId)).get(userId)).map(CanonicalObjects::user);
    }

    @Override
    public Optional<CanonicalUser> userByUsername(String username) {
        OptionalLong id = userIdByUsername(username);
        return id.isPresent() ? user(id.getAsLong()) : Optional.empty();
    }

    @Override
    public Optional<CanonicalBoard> board(long boardId) {
        return Optional.ofNullable(objects(ObjectType.BOARD, List.of(boardId)).get(boardId)).map(CanonicalObjects::board);
    }

    @Override
    public Optional<CanonicalPin> pin(long pinId) {
        PinRow row = pins(List.of(pinId)).get(pinId);
        return row == null ? Optional.empty() : CanonicalObjects.pin(row.json(), row.likes(), row.comments(), row.repins());
    }

    @Override
    public Optional<CanonicalComment> comment(long commentId) {
        String json = objects(ObjectType.COMMENT, List.of(commentId)).get(commentId);
        return json == null ? Optional.empty() : CanonicalObjects.comment(json);
    }

    @Override
    public ListPage<CanonicalComment> pinComments(long pinId, String cursor, int limit) {
        return newestPage(Mapping.PIN_HAS_COMMENTS, pinId, cursor, limit, entries -> {
            Map<Long, String> comments = objects(ObjectType.COMMENT, ids(entries));
            List<CanonicalComment> out = new ArrayList<>();
            for (ListEntry e : entries) {
                String json = comments.get(e.id());
                if (json != null) CanonicalObjects.comment(json).ifPresent(out::add); // deleted since its list row was read
            }
            return out;
        });
    }

    /** One batch of pin rows (per shard in MySQL, one multi-get in the caches). */
    @Override
    public Map<Long, CanonicalPin> livePins(Collection<Long> pinIds) {
        Map<Long, CanonicalPin> out = new LinkedHashMap<>();
        if (pinIds.isEmpty()) return out;
        Map<Long, PinRow> rows = pins(List.copyOf(new LinkedHashSet<>(pinIds)));
        for (Long id : pinIds) {
            PinRow row = rows.get(id);
            if (row != null) CanonicalObjects.pin(row.json(), row.likes(), row.comments(), row.repins()).ifPresent(p -> out.put(id, p));
        }
        return out;
    }

    @Override
    public ListPage<CanonicalPin> boardPins(long boardId, BoardPinOrder order, int offset, String cursor, int limit) {
        if (offset < 0) throw new IllegalArgumentException("offset must be >= 0: " + offset);
        if (offset > 0 && cursor != null) throw new IllegalArgumentException("offset and cursor exclude each other");
        ListEntry after = ListCursors.parse(order, cursor);
        List<ListEntry> rows = boardPins(boardId, order, after, offset, checkLimit(limit) + 1);
        return page(rows, limit, last -> ListCursors.of(order, last), this::hydratePins);
    }

    @Override
    public ListPage<CanonicalBoard> userBoards(long userId, String cursor, int limit) {
        return newestPage(Mapping.USER_HAS_BOARDS, userId, cursor, limit, entries -> {
            Map<Long, String> boards = objects(ObjectType.BOARD, ids(entries));
            List<CanonicalBoard> out = new ArrayList<>();
            for (ListEntry e : entries) {
                String json = boards.get(e.id());
                if (json != null) out.add(CanonicalObjects.board(json));
            }
            return out;
        });
    }

    @Override
    public ListPage<CanonicalPin> userPins(long userId, String cursor, int limit) {
        return newestPage(Mapping.USER_HAS_PINS, userId, cursor, limit, this::hydratePins);
    }

    @Override
    public ListPage<Liked> pinLikers(long pinId, String cursor, int limit) {
        return newestPage(Mapping.PIN_LIKED_BY_USERS, pinId, cursor, limit, CanonicalRowReads::liked);
    }

    @Override
    public ListPage<Liked> userLikes(long userId, String cursor, int limit) {
        return newestPage(Mapping.USER_LIKES_PINS, userId, cursor, limit, CanonicalRowReads::liked);
    }

    @Override
    public Optional<CanonicalInterest> interest(long interestId) {
        return Optional.ofNullable(objects(ObjectType.INTEREST, List.of(interestId)).get(interestId)).map(CanonicalObjects::interest);
    }

    @Override
    public ListPage<CanonicalPin> interestPins(long interestId, String cursor, int limit) {
        return newestPage(Mapping.INTEREST_HAS_PINS, interestId, cursor, limit, this::hydratePins);
    }

    @Override
    public long interestPinCount(long interestId) {
        return count(Mapping.INTEREST_HAS_PINS, interestId);
    }

    @Override
    public long pinCount(long userId) {
        return count(Mapping.USER_HAS_PINS, userId);
    }

    @Override
    public long likeCount(long userId) {
        return count(Mapping.USER_LIKES_PINS, userId);
    }

    private <T> ListPage<T> newestPage(Mapping mapping, long fromId, String cursor, int limit, Function<List<ListEntry>, List<T>> items) {
        List<ListEntry> rows = newestFirst(mapping, fromId, ListCursors.parseNewest(cursor), checkLimit(limit) + 1);
        return page(rows, limit, ListCursors::newest, items);
    }

    /** The first {@code limit} rows as items; a cursor after the last of them when a further row exists. */
    private static <T> ListPage<T> page(List<ListEntry> rows, int limit, Function<ListEntry, String> cursorOf,
                                        Function<List<ListEntry>, List<T>> items) {
        boolean more = rows.size() > limit;
        List<ListEntry> served = more ? rows.subList(0, limit) : rows;
        return new ListPage<>(items.apply(served), more ? cursorOf.apply(served.get(served.size() - 1)) : null);
    }

    /** The live pins of {@code entries}, in their order (a pin deleted since its list row was read is left out). */
    private List<CanonicalPin> hydratePins(List<ListEntry> entries) {
        Map<Long, PinRow> rows = pins(ids(entries));
        List<CanonicalPin> out = new ArrayList<>();
        for (ListEntry e : entries) {
            PinRow row = rows.get(e.id());
            if (row != null) CanonicalObjects.pin(row.json(), row.likes(), row.comments(), row.repins()).ifPresent(out::add);
        }
        return out;
    }

    private static List<Liked> liked(List<ListEntry> entries) {
        return entries.stream().map(e -> new Liked(e.id(), Instant.ofEpochMilli(e.sequence()))).toList();
    }

    private static List<Long> ids(List<ListEntry> entries) {
        return entries.stream().map(ListEntry::id).toList();
    }

    private static int checkLimit(int limit) {
        if (limit < 1) throw new IllegalArgumentException("limit must be >= 1: " + limit);
        return limit;
    }
}
