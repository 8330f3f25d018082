package dev.pinfeed.feedstore;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The materialized home feed (seed 002): a frozen view of what each user was shown, newest chunk
 * first, each chunk in the generator's order, trimmed to a maximum length. Saving a chunk is two
 * steps so a crash loses nothing: {@link #journal} before the answer is sent (the commit point), then
 * {@link #materialize} after it (the items take their place and the journal entry goes).
 */
public interface MaterializedFeedStore extends AutoCloseable {

    /** Records a chunk about to be shown. Idempotent. */
    void journal(Chunk chunk);

    /** Chunks journaled but not yet materialized, oldest first. */
    List<Chunk> pending(long userId);

    /** Puts the chunk's items ahead of the feed (same positions on every repeat) and drops its journal entry. Idempotent. */
    void materialize(Chunk chunk);

    /** Up to {@code limit} items after {@code after} (null: from the newest), in feed order. */
    FeedPage read(long userId, FeedPosition after, int limit);

    /**
     * {@link #read}, when the user has no {@link #pending} chunk; empty when he has one (the caller
     * completes it, then reads). A next page checks both on every request, so stores answer this
     * with one read where they can; this default makes two.
     */
    default Optional<FeedPage> readUnlessPending(long userId, FeedPosition after, int limit) {
        return pending(userId).isEmpty() ? Optional.of(read(userId, after, limit)) : Optional.empty();
    }

    /**
     * {@link #pending} and {@link #state} together: a first page needs both before it generates, so
     * stores answer this with one read where they can; this default makes two.
     */
    default PendingAndState pendingAndState(long userId) {
        return new PendingAndState(pending(userId), state(userId));
    }

    /**
     * {@link #pendingAndState} and, when nothing is pending, the first page ({@code read(userId, null, limit)}): a first
     * page's questions, which stores answer with one read where they can; this default makes two or three.
     */
    default FirstPageView firstPageView(long userId, int limit) {
        PendingAndState v = pendingAndState(userId);
        return new FirstPageView(v.pending(), v.state(), false, v.pending().isEmpty() ? Optional.of(read(userId, null, limit)) : Optional.empty());
    }

    /** Removes these pins from the user's feed (unfollow, delete). Idempotent. */
    void removePins(long userId, Collection<Long> pinIds);

    /** Every item of the user's feed, for purges by author or board (the feed is bounded). */
    List<FeedPage.Positioned> all(long userId);

    /** Keeps the newest {@code maxItems} items; returns how many items the feed holds after it. */
    int trim(long userId, int maxItems);

    Optional<GeneratorState> state(long userId);

    /**
     * Removes everything held for the user: his items, his journal (chunks not yet materialized) and his
     * state, so his next first page starts as a new user's. Idempotent.
     */
    void reset(long userId);

    void saveState(long userId, GeneratorState state);

    @Override
    default void close() {}
}
