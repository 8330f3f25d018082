package dev.pinfeed.canonicalstore.reads;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The read side of the canonical store (seeds 000/002): objects by id, a board's pins in either
 * order, a user's boards and pins, likes in both directions, a pin's comments, and counts. Lists are newest first
 * unless said otherwise and page with opaque cursors ({@link ListCursors}); a board's pins also by
 * offset (seed 002's {@code LIMIT 50 OFFSET 150}). Deleted pins and comments are never returned; an unknown id
 * is an empty {@link Optional} (objects) or an empty page (lists). Ids must be of the named type.
 *
 * <p>Failures: {@link BadCursorException} for a cursor not issued for that list;
 * {@link dev.pinfeed.config.StoreUnavailableException} naming the store that did not answer.
 */
public interface CanonicalReads extends LivePins {

    Optional<CanonicalUser> user(long userId);

    /** Through the cross-shard username index. */
    Optional<CanonicalUser> userByUsername(String username);

    Optional<CanonicalBoard> board(long boardId);

    /** Empty when unknown or deleted. */
    Optional<CanonicalPin> pin(long pinId);

    /**
     * The live pins among {@code pinIds}, by id (deleted and unknown ids are absent): hydration of a
     * feed page in one batch. This default asks {@link #pin} per id; stores override it with one batch.
     */
    @Override
    default Map<Long, CanonicalPin> livePins(Collection<Long> pinIds) {
        Map<Long, CanonicalPin> out = new LinkedHashMap<>();
        for (Long id : pinIds) pin(id).ifPresent(p -> out.put(id, p));
        return out;
    }

    /** Empty when unknown or deleted. */
    Optional<CanonicalComment> comment(long commentId);

    /** The pin's live comments, newest first. */
    ListPage<CanonicalComment> pinComments(long pinId, String cursor, int limit);

    /** {@code cursor} and {@code offset > 0} together are refused ({@link IllegalArgumentException}). */
    ListPage<CanonicalPin> boardPins(long boardId, BoardPinOrder order, int offset, String cursor, int limit);

    ListPage<CanonicalBoard> userBoards(long userId, String cursor, int limit);

    ListPage<CanonicalPin> userPins(long userId, String cursor, int limit);

    /** Users who like the pin now, most recent like first. */
    ListPage<Liked> pinLikers(long pinId, String cursor, int limit);

    /** Pins the user likes now, most recent like first. */
    ListPage<Liked> userLikes(long userId, String cursor, int limit);

    /** Empty when unknown. */
    Optional<CanonicalInterest> interest(long interestId);

    /** The live pins carrying the interest, newest first. */
    ListPage<CanonicalPin> interestPins(long interestId, String cursor, int limit);

    /** How many live pins carry the interest (active interest_has_pins rows). */
    long interestPinCount(long interestId);

    /** The user's live pins. */
    long pinCount(long userId);

    /** The pins the user likes now. */
    long likeCount(long userId);
}
