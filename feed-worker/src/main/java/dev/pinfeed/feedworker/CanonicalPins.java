package dev.pinfeed.feedworker;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The canonical pins the worker reads (the MySQL shards, through canonical-store): the newest pins
 * to backfill a new follow with, a liked pin's author, and like counts for scoring. Outages throw
 * {@link dev.pinfeed.config.StoreUnavailableException}.
 */
public interface CanonicalPins {

    /** Up to {@code limit} of the user's own live pins, newest first. */
    List<PinFacts> newestOfUser(long userId, int limit);

    /** Up to {@code limit} of the board's live pins, newest first. */
    List<PinFacts> newestOfBoard(long boardId, int limit);

    /** The pins known to the canonical store, deleted ones included; unknown ids are absent. */
    Map<Long, PinFacts> pins(Collection<Long> pinIds);

    /** How many users like each pin now; 0 (or absent) for none. */
    Map<Long, Long> likeCounts(Collection<Long> pinIds);
}
