package dev.pinfeed.fanoutstreams.kafka;

import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.GraphStore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

/** Writes a follower graph through the store's commands, each with a newer version than the last. */
final class TestGraph {

    private final GraphStore store;
    private final AtomicLong version = new AtomicLong(1_767_225_600_000L);

    TestGraph(GraphStore store) {
        this.store = store;
    }

    GraphStore store() {
        return store;
    }

    TestGraph board(long board, long owner) {
        long v = version.incrementAndGet();
        store.apply(new GraphCommand.CreateBoard(v, v, board, owner));
        return this;
    }

    TestGraph followUser(long follower, long followee) {
        long v = version.incrementAndGet();
        store.apply(new GraphCommand.FollowUser(v, v, follower, followee));
        return this;
    }

    /** Users {@code first .. first + n - 1} follow {@code followee}. */
    TestGraph followers(long followee, long first, int n) {
        LongStream.range(first, first + n).forEach(f -> followUser(f, followee));
        return this;
    }

    TestGraph followBoard(long follower, long board, long owner) {
        long v = version.incrementAndGet();
        store.apply(new GraphCommand.FollowBoard(v, v, follower, board, owner));
        return this;
    }

    TestGraph unfollowBoard(long follower, long board, long owner) {
        long v = version.incrementAndGet();
        store.apply(new GraphCommand.UnfollowBoard(v, v, follower, board, owner));
        return this;
    }
}
