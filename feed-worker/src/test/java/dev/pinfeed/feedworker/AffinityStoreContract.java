package dev.pinfeed.feedworker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.feedworker.AffinityStore.LikeChange;
import dev.pinfeed.feedworker.AffinityStore.Pair;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** What every {@link AffinityStore} does; run against the in-memory store (unit) and Redis (IT). */
public abstract class AffinityStoreContract {

    protected abstract AffinityStore store();

    /** A user id no other test used. */
    protected abstract long freshUser();

    private long affinity(long user, long author) {
        return store().affinities(List.of(new Pair(user, author))).get(new Pair(user, author));
    }

    @Test
    void affinityCountsTheAuthorsPinsTheUserLikes() {
        long u = freshUser();
        long author = freshUser();
        long other = freshUser();
        store().apply(List.of(new LikeChange(u, 1, author, true), new LikeChange(u, 2, author, true), new LikeChange(u, 3, other, true)));
        assertThat(affinity(u, author)).isEqualTo(2);
        assertThat(affinity(u, other)).isEqualTo(1);
        assertThat(affinity(freshUser(), author)).as("nobody else's").isZero();
    }

    @Test
    void aRepeatedLikeCountsOnceAndAnUnlikeTakesItBack() {
        long u = freshUser();
        long author = freshUser();
        store().apply(List.of(new LikeChange(u, 1, author, true), new LikeChange(u, 1, author, true)));
        store().apply(List.of(new LikeChange(u, 1, author, true)));
        assertThat(affinity(u, author)).isEqualTo(1);
        store().apply(List.of(new LikeChange(u, 1, author, false), new LikeChange(u, 1, author, false)));
        assertThat(affinity(u, author)).isZero();
        store().apply(List.of(new LikeChange(u, 9, author, false))); // never liked: nothing to take back
        assertThat(affinity(u, author)).isZero();
    }

    @Test
    void likeUnlikeLikeEndsLikedAndItsReplayChangesNothing() {
        long u = freshUser();
        long author = freshUser();
        List<LikeChange> history = List.of(new LikeChange(u, 1, author, true), new LikeChange(u, 1, author, false),
                new LikeChange(u, 1, author, true), new LikeChange(u, 2, author, true));
        store().apply(history);
        assertThat(affinity(u, author)).isEqualTo(2);
        store().apply(history); // a replay from the start of the topic
        store().apply(history.subList(1, 3)); // a replay from the middle
        assertThat(affinity(u, author)).isEqualTo(2);
    }

    @Test
    void manyPairsAreAnsweredInOneCall() {
        long author = freshUser();
        long[] users = LongStream.range(0, 40).map(i -> freshUser()).toArray(); // enough to span every instance
        for (int i = 0; i < users.length; i++) {
            for (int p = 0; p <= i % 3; p++) store().apply(List.of(new LikeChange(users[i], 100 + p, author, true)));
        }
        var pairs = LongStream.of(users).mapToObj(u -> new Pair(u, author)).toList();
        var got = store().affinities(pairs);
        for (int i = 0; i < users.length; i++) assertThat(got.get(pairs.get(i))).as("user %d", i).isEqualTo(i % 3 + 1);
    }
}
