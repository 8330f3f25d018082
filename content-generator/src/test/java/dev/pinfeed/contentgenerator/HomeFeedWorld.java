package dev.pinfeed.contentgenerator;

import dev.pinfeed.canonicalstore.reads.InMemoryCanonicalReads;
import dev.pinfeed.feedstore.InMemoryMaterializedFeedStore;
import dev.pinfeed.feedstore.InMemoryPoolStore;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.sharded.InMemoryGraphStore;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import java.util.concurrent.atomic.AtomicLong;

/** The stores the home feed is made from (pools, materialized feed, canonical reads, graph), in memory, and the objects of a test: real sharded ids, graph commands in order. */
public final class HomeFeedWorld {

    public static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

    public final InMemoryPoolStore pools = new InMemoryPoolStore();
    public final InMemoryMaterializedFeedStore feeds = new InMemoryMaterializedFeedStore();
    public final InMemoryCanonicalReads canonical = new InMemoryCanonicalReads();
    public final InMemoryGraphStore graph = new InMemoryGraphStore();
    private final AtomicLong local = new AtomicLong(1000);
    private final AtomicLong events = new AtomicLong();

    public long user() {
        long id = ShardedId.compose(5, ObjectType.USER, local.incrementAndGet());
        canonical.user(id, "u" + id, null, T0);
        return id;
    }

    /** A board of {@code owner}, known to the graph as the graph processor makes it known. */
    public long board(long owner) {
        long id = ShardedId.compose(5, ObjectType.BOARD, local.incrementAndGet());
        canonical.board(id, owner, "board", null, T0);
        graph.apply(new GraphCommand.CreateBoard(events.incrementAndGet(), T0 - 1_000_000, id, owner));
        return id;
    }

    public long pin(long board, long author, long createdAt) {
        long id = ShardedId.compose(5, ObjectType.PIN, local.incrementAndGet());
        canonical.pin(id, board, author, "pin", null, null, createdAt);
        return id;
    }

    /** An interest, its pins carrying it (newest last), and its followers. */
    public long interest(java.util.List<Long> pins, long... followers) {
        long id = ShardedId.compose(1, ObjectType.INTEREST, local.incrementAndGet());
        canonical.interest(id, "interest-" + id, T0);
        for (int i = 0; i < pins.size(); i++) canonical.tagPin(id, pins.get(i), T0 - 100_000 + i);
        for (long f : followers) graph.apply(new GraphCommand.FollowInterest(events.incrementAndGet(), T0 - 500_000 + events.get(), f, id));
        return id;
    }

    public void follow(long follower, long followee) {
        graph.apply(new GraphCommand.FollowUser(events.incrementAndGet(), T0 - 500_000 + events.get(), follower, followee));
    }

    public void unfollow(long follower, long followee) {
        graph.apply(new GraphCommand.UnfollowUser(events.incrementAndGet(), T0 - 500_000 + events.get(), follower, followee));
    }

    public void followBoard(long follower, long board, long owner) {
        graph.apply(new GraphCommand.FollowBoard(events.incrementAndGet(), T0 - 500_000 + events.get(), follower, board, owner));
    }

    public void unfollowBoard(long follower, long board, long owner) {
        graph.apply(new GraphCommand.UnfollowBoard(events.incrementAndGet(), T0 - 500_000 + events.get(), follower, board, owner));
    }
}
