package dev.pinfeed.feedworker;

import dev.pinfeed.feedstore.scoring.PinFacts;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The canonical pins the worker reads (the MySQL shards, through canonical-store): the newest pins
 * to backfill a new follow with, a liked pin's author, and like counts for scoring. Outages throw
 * {@link dev.pinfeed.config.StoreUnavailableException}.
 */
public interface CanonicalPins {

    /**
     * Up to {@code limit} of each user's own live pins, newest first, in one read: every asked user a key (an empty
     * list for none).
     */
    Map<Long, List<PinFacts>> newestOfUsers(Collection<Long> userIds, int limit);

    /** Up to {@code limit} of the board's live pins, newest first. */
    List<PinFacts> newestOfBoard(long boardId, int limit);

    /**
     * What the canonical store knows of these pins: a live pin's facts, empty for a deleted pin;
     * ids it does not know (yet: the canonical writer may lag behind the likes topic) are absent.
     */
    Map<Long, Optional<PinFacts>> pins(Collection<Long> pinIds);

    /** The interests each live pin carries (empty for none); deleted and unknown pins are absent. */
    Map<Long, List<Long>> interestsOf(Collection<Long> pinIds);

    /** How many users like each pin now; 0 (or absent) for none. */
    Map<Long, Long> likeCounts(Collection<Long> pinIds);
}
