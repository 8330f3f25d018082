package dev.pinfeed.feedworker;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * How close each receiver is to each author: how many of the author's pins he likes, kept by the
 * worker from the likes topic. A like counts once per (user, pin) however often it is applied — the
 * store remembers which pins each user's count holds — and an unlike takes it out again, so replays
 * change nothing and like, unlike, like ends liked. Outages throw
 * {@link dev.pinfeed.config.StoreUnavailableException}.
 */
public interface AffinityStore extends AutoCloseable {

    /** A receiver and an author. */
    record Pair(long receiverId, long authorId) {}

    /** {@code userId} liked ({@code liked}) or stopped liking pin {@code pinId} of {@code authorId}. */
    record LikeChange(long userId, long pinId, long authorId, boolean liked) {}

    /** The affinity of each pair; 0 when the receiver likes none of the author's pins. */
    Map<Pair, Long> affinities(Collection<Pair> pairs);

    /** Applies the changes in order. Idempotent per change. */
    void apply(List<LikeChange> changes);

    @Override
    default void close() {}
}
