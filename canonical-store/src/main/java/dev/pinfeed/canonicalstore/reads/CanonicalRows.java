package dev.pinfeed.canonicalstore.reads;

import dev.pinfeed.canonicalstore.CanonicalLayout.Mapping;
import dev.pinfeed.idallocator.ObjectType;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The store's rows as they are, before they become objects and pages ({@link CanonicalRowReads}):
 * what the MySQL shards answer and what the caches keep (seed 002's application-layer join: lists of
 * ids, then the objects of those ids).
 */
public interface CanonicalRows {

    /** The stored JSON of each object of {@code type} that exists (deleted pins included), by id; batches group by shard. */
    Map<Long, String> objects(ObjectType type, Collection<Long> ids);

    /** Pins' stored JSON with their like, comment and repin counts, by id, for the pins that exist. */
    Map<Long, PinRow> pins(Collection<Long> pinIds);

    /** {@code comments}: the pin's live comments (active pin_has_comments rows); {@code repins}: its live repins. */
    record PinRow(String json, long likes, long comments, long repins) {}

    /**
     * A board's live pins in {@code order}: those strictly after {@code after} (null: from the first),
     * skipping {@code offset}, at most {@code limit}.
     */
    List<ListEntry> boardPins(long boardId, BoardPinOrder order, ListEntry after, int offset, int limit);

    /**
     * The live (active, or liked) targets of {@code mapping} from {@code fromId}, newest first, strictly
     * after {@code after} (null: from the newest), at most {@code limit}.
     */
    List<ListEntry> newestFirst(Mapping mapping, long fromId, ListEntry after, int limit);

    /**
     * {@link #newestFirst} from the start for each of {@code fromIds}: every id a key, with its list (empty for none).
     * This default asks per id; the MySQL store reads them together (its shards' queries in one statement per host).
     */
    default Map<Long, List<ListEntry>> newestFirstOfEach(Mapping mapping, Collection<Long> fromIds, int limit) {
        Map<Long, List<ListEntry>> out = new LinkedHashMap<>();
        for (Long id : fromIds) out.computeIfAbsent(id, from -> newestFirst(mapping, from, null, limit));
        return out;
    }

    /** How many live targets {@code mapping} has from {@code fromId}. */
    long count(Mapping mapping, long fromId);

    OptionalLong userIdByUsername(String username);
}
