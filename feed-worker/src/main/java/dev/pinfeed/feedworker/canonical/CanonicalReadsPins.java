package dev.pinfeed.feedworker.canonical;

import dev.pinfeed.canonicalstore.reads.BoardPinOrder;
import dev.pinfeed.canonicalstore.reads.CanonicalObjects;
import dev.pinfeed.canonicalstore.reads.CanonicalPin;
import dev.pinfeed.canonicalstore.reads.CanonicalRowReads;
import dev.pinfeed.canonicalstore.reads.CanonicalRows.PinRow;
import dev.pinfeed.feedworker.CanonicalPins;
import dev.pinfeed.feedstore.scoring.PinFacts;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link CanonicalPins} over canonical-store's reads (in a process: MySQL through the sharded query
 * API, behind its Redis caches, as feed-service reads them). Batches stay batches: the pins of a
 * worker batch are one {@code pins} call (one statement per shard on a cache miss), its follows' backfills one
 * {@code newestUserPins} call (one statement per host).
 */
public final class CanonicalReadsPins implements CanonicalPins {

    private final CanonicalRowReads reads;

    public CanonicalReadsPins(CanonicalRowReads reads) {
        this.reads = reads;
    }

    @Override
    public Map<Long, List<PinFacts>> newestOfUsers(Collection<Long> userIds, int limit) {
        Map<Long, List<PinFacts>> out = new LinkedHashMap<>();
        if (limit <= 0) {
            userIds.forEach(id -> out.put(id, List.of()));
            return out;
        }
        reads.newestUserPins(userIds, limit).forEach((id, pins) -> out.put(id, pins.stream().map(CanonicalReadsPins::facts).toList()));
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
