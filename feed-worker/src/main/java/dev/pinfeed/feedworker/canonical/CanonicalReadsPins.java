package dev.pinfeed.feedworker.canonical;

import dev.pinfeed.canonicalstore.CanonicalLayout.Mapping;
import dev.pinfeed.canonicalstore.reads.BoardPinOrder;
import dev.pinfeed.canonicalstore.reads.CanonicalObjects;
import dev.pinfeed.canonicalstore.reads.CanonicalPin;
import dev.pinfeed.canonicalstore.reads.CanonicalRowReads;
import dev.pinfeed.canonicalstore.reads.CanonicalRows.PinRow;
import dev.pinfeed.canonicalstore.reads.ListEntry;
import dev.pinfeed.feedworker.CanonicalPins;
import dev.pinfeed.feedstore.scoring.PinFacts;
import dev.pinfeed.idallocator.ObjectType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link CanonicalPins} over canonical-store's reads (in a process: MySQL through the sharded query
 * API, behind its Redis caches, as feed-service reads them). Batches stay batches: the pins of a
 * worker batch are one {@code pins} call (one statement per shard on a cache miss), its user follows' backfills one
 * {@link #newestOfUsers} call (a statement per host for the lists, one batch of pins).
 */
public final class CanonicalReadsPins implements CanonicalPins {

    private final CanonicalRowReads reads;

    public CanonicalReadsPins(CanonicalRowReads reads) {
        this.reads = reads;
    }

    /**
     * The followees' lists in one read ({@code newestFirstOfEach}), then their pins' JSON alone in one batch: a backfill needs
     * a pin's board, author and time, not its like, comment and repin counts (three more cache keys or statements a pin).
     */
    @Override
    public Map<Long, List<PinFacts>> newestOfUsers(Collection<Long> userIds, int limit) {
        Map<Long, List<PinFacts>> out = new LinkedHashMap<>();
        if (limit <= 0) {
            userIds.forEach(id -> out.put(id, List.of()));
            return out;
        }
        Map<Long, List<ListEntry>> lists = reads.newestFirstOfEach(Mapping.USER_HAS_PINS, userIds, limit);
        Map<Long, String> json = reads.objects(ObjectType.PIN, lists.values().stream().flatMap(List::stream).map(ListEntry::id).distinct().toList());
        lists.forEach((user, entries) -> {
            List<PinFacts> pins = new ArrayList<>();
            for (ListEntry e : entries) {
                String pin = json.get(e.id()); // absent or not live: deleted since its list row was read
                if (pin != null) CanonicalObjects.pin(pin, 0).map(CanonicalReadsPins::facts).ifPresent(pins::add);
            }
            out.put(user, pins);
        });
        return out;
    }

    @Override
    public List<PinFacts> newestOfBoard(long boardId, int limit) {
        return limit <= 0 ? List.of()
                : reads.boardPins(boardId, BoardPinOrder.NEWEST, 0, null, limit).items().stream().map(CanonicalReadsPins::facts).toList();
    }

    @Override
    public Map<Long, Optional<PinFacts>> pins(Collection<Long> pinIds) {
        Map<Long, Optional<PinFacts>> out = new HashMap<>();
        if (pinIds.isEmpty()) return out;
        reads.pins(pinIds).forEach((id, row) -> out.put(id, CanonicalObjects.pin(row.json(), row.likes()).map(CanonicalReadsPins::facts)));
        return out;
    }

    @Override
    public Map<Long, List<Long>> interestsOf(Collection<Long> pinIds) {
        Map<Long, List<Long>> out = new HashMap<>();
        if (pinIds.isEmpty()) return out;
        reads.pins(pinIds).forEach((id, row) -> CanonicalObjects.pin(row.json(), row.likes()).ifPresent(p -> out.put(id, p.interests())));
        return out;
    }

    @Override
    public Map<Long, Long> likeCounts(Collection<Long> pinIds) {
        Map<Long, Long> out = new HashMap<>();
        if (pinIds.isEmpty()) return out;
        for (Map.Entry<Long, PinRow> e : reads.pins(pinIds).entrySet()) out.put(e.getKey(), e.getValue().likes());
        return out;
    }

    private static PinFacts facts(CanonicalPin p) {
        return new PinFacts(p.id(), p.boardId(), p.authorId(), p.createdAt().toEpochMilli());
    }
}
