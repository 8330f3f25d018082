package dev.pinfeed.contentgenerator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.canonicalstore.reads.InMemoryCanonicalReads;
import dev.pinfeed.feedstore.Chunk;
import dev.pinfeed.feedstore.FeedItem;
import dev.pinfeed.feedstore.InMemoryMaterializedFeedStore;
import dev.pinfeed.feedstore.InMemoryPoolStore;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.scoring.WeightedScorer;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.sharded.InMemoryGraphStore;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PoolRegeneratorTest {

    private static final long T0 = 1_767_225_600_000L;
    private final AtomicLong local = new AtomicLong(100);
    private final AtomicLong events = new AtomicLong();
    private final InMemoryPoolStore pools = new InMemoryPoolStore();
    private final InMemoryMaterializedFeedStore feeds = new InMemoryMaterializedFeedStore();
    private final InMemoryCanonicalReads canonical = new InMemoryCanonicalReads();
    private final InMemoryGraphStore graph = new InMemoryGraphStore();
    private final WeightedScorer scorer = new WeightedScorer(WeightedScorer.Settings.defaults(), Clock.fixed(Instant.ofEpochMilli(T0), ZoneOffset.UTC));

    private long user() {
        long id = ShardedId.compose(3, ObjectType.USER, local.incrementAndGet());
        canonical.user(id, "u" + id, null, T0);
        return id;
    }

    private long board(long owner) {
        long id = ShardedId.compose(3, ObjectType.BOARD, local.incrementAndGet());
        canonical.board(id, owner, "b", null, T0);
        graph.apply(new GraphCommand.CreateBoard(events.incrementAndGet(), T0 - 100_000, id, owner));
        return id;
    }

    private long pin(long board, long author, long createdAt) {
        long id = ShardedId.compose(3, ObjectType.PIN, local.incrementAndGet());
        canonical.pin(id, board, author, "p", null, null, createdAt);
        return id;
    }

    private PoolRegenerator regenerator(int pinsEach) {
        return new PoolRegenerator(pools, feeds, canonical, graph, scorer, new RegenerationSettings(200, pinsEach, 500, 450));
    }

    private static List<Long> pins(List<PoolEntry> entries) {
        return entries.stream().map(PoolEntry::pinId).toList();
    }

    @Test
    void followedUsersAndBoardsBringTheirNewestPinsScoredByTheWorkersScorer() {
        long u = user();
        long author = user();
        long authorBoard = board(author);
        long oldest = pin(authorBoard, author, T0 - 30_000);
        long older = pin(authorBoard, author, T0 - 20_000);
        long newest = pin(authorBoard, author, T0 - 10_000);
        long owner = user();
        long followedBoard = board(owner);
        long boardPin = pin(followedBoard, owner, T0 - 5_000);
        long otherBoardOfOwner = pin(board(owner), owner, T0 - 1_000);
        graph.apply(new GraphCommand.FollowUser(events.incrementAndGet(), T0 - 50_000, u, author));
        graph.apply(new GraphCommand.FollowBoard(events.incrementAndGet(), T0 - 50_000, u, followedBoard, owner));

        assertThat(regenerator(2).regenerate(u)).isEqualTo(3);
        assertThat(pins(pools.best(u, Source.FOLLOWED_USER, 10))).containsExactly(newest, older);
        assertThat(pins(pools.best(u, Source.FOLLOWED_BOARD, 10))).containsExactly(boardPin);
        assertThat(pins(pools.all(u))).doesNotContain(oldest, otherBoardOfOwner);
        PoolEntry e = pools.best(u, Source.FOLLOWED_BOARD, 1).get(0);
        assertThat(e.score()).isEqualTo(scorer.score(new dev.pinfeed.feedstore.scoring.Candidate(u, Source.FOLLOWED_BOARD,
                new dev.pinfeed.feedstore.scoring.PinFacts(boardPin, followedBoard, owner, T0 - 5_000), 0, 0)));
        assertThat(e).isEqualTo(new PoolEntry(u, Source.FOLLOWED_BOARD, e.score(), boardPin, owner, followedBoard, T0 - 5_000));
    }

    @Test
    void pinsOfABoardHeUnfollowedStayOutAsTheWorkersBackfillLeavesThemOut() {
        long u = user();
        long author = user();
        long kept = board(author);
        long unfollowed = board(author);
        long keptPin = pin(kept, author, T0 - 2_000);
        long unfollowedPin = pin(unfollowed, author, T0 - 1_000);
        graph.apply(new GraphCommand.FollowUser(events.incrementAndGet(), T0 - 50_000, u, author));
        graph.apply(new GraphCommand.UnfollowBoard(events.incrementAndGet(), T0 - 40_000, u, unfollowed, author));

        assertThat(pins(regenerator(10).plan(u))).containsExactly(keptPin);
        assertThat(pins(pools.all(u))).as("a plan writes nothing").isEmpty();
        regenerator(10).regenerate(u);
        assertThat(pins(pools.all(u))).containsExactly(keptPin).doesNotContain(unfollowedPin);
    }

    @Test
    void pinsInTheMaterializedFeedAndHisOwnAreLeftOut() {
        long u = user();
        long author = user();
        long board = board(author);
        long shown = pin(board, author, T0 - 3_000);
        long fresh = pin(board, author, T0 - 2_000);
        long owner = user();
        long shared = board(owner);
        pin(shared, u, T0 - 1_000); // his own pin on a board he follows
        graph.apply(new GraphCommand.FollowUser(events.incrementAndGet(), T0 - 50_000, u, author));
        graph.apply(new GraphCommand.FollowBoard(events.incrementAndGet(), T0 - 50_000, u, shared, owner));
        feeds.materialize(new Chunk(u, 1, List.of(new FeedItem(shown, Source.FOLLOWED_USER, 1.0, author, board))));

        assertThat(pins(regenerator(10).plan(u))).containsExactly(fresh);
    }
}
