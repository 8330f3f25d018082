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
import dev.pinfeed.followergraph.sharded.InMemoryGraphStore;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class PoolRegeneratorTest {

    private static final long T0 = HomeFeedWorld.T0;
    private final HomeFeedWorld w = new HomeFeedWorld();
    private final InMemoryPoolStore pools = w.pools;
    private final InMemoryMaterializedFeedStore feeds = w.feeds;
    private final InMemoryCanonicalReads canonical = w.canonical;
    private final InMemoryGraphStore graph = w.graph;
    private final WeightedScorer scorer = new WeightedScorer(WeightedScorer.Settings.defaults(), Clock.fixed(Instant.ofEpochMilli(T0), ZoneOffset.UTC));




    private PoolRegenerator regenerator(int pinsEach) {
        return new PoolRegenerator(pools, feeds, canonical, graph, scorer, new RegenerationSettings(200, pinsEach, 500, 450));
    }

    private static List<Long> pins(List<PoolEntry> entries) {
        return entries.stream().map(PoolEntry::pinId).toList();
    }

    @Test
    void followedUsersAndBoardsBringTheirNewestPinsScoredByTheWorkersScorer() {
        long u = w.user();
        long author = w.user();
        long authorBoard = w.board(author);
        long oldest = w.pin(authorBoard, author, T0 - 30_000);
        long older = w.pin(authorBoard, author, T0 - 20_000);
        long newest = w.pin(authorBoard, author, T0 - 10_000);
        long owner = w.user();
        long followedBoard = w.board(owner);
        long boardPin = w.pin(followedBoard, owner, T0 - 5_000);
        long otherBoardOfOwner = w.pin(w.board(owner), owner, T0 - 1_000);
        w.follow(u, author);
        w.followBoard(u, followedBoard, owner);

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
        long u = w.user();
        long author = w.user();
        long kept = w.board(author);
        long unfollowed = w.board(author);
        long keptPin = w.pin(kept, author, T0 - 2_000);
        long unfollowedPin = w.pin(unfollowed, author, T0 - 1_000);
        w.follow(u, author);
        w.unfollowBoard(u, unfollowed, author);

        assertThat(pins(regenerator(10).plan(u))).containsExactly(keptPin);
        assertThat(pins(pools.all(u))).as("a plan writes nothing").isEmpty();
        regenerator(10).regenerate(u);
        assertThat(pins(pools.all(u))).containsExactly(keptPin).doesNotContain(unfollowedPin);
    }

    @Test
    void pinsInTheMaterializedFeedAndHisOwnAreLeftOut() {
        long u = w.user();
        long author = w.user();
        long board = w.board(author);
        long shown = w.pin(board, author, T0 - 3_000);
        long fresh = w.pin(board, author, T0 - 2_000);
        long owner = w.user();
        long shared = w.board(owner);
        w.pin(shared, u, T0 - 1_000); // his own pin on a board he follows
        w.follow(u, author);
        w.followBoard(u, shared, owner);
        feeds.materialize(new Chunk(u, 1, List.of(new FeedItem(shown, Source.FOLLOWED_USER, 1.0, author, board))));

        assertThat(pins(regenerator(10).plan(u))).containsExactly(fresh);
    }

    @Test
    void followedInterestsBringTheirNewestPinsAsInterestsUnlessAFollowedUserBringsThem() {
        long u = w.user();
        long author = w.user();
        long board = w.board(author);
        long viaAuthor = w.pin(board, author, T0 - 4_000);
        long maker = w.user();
        long makersBoard = w.board(maker);
        long older = w.pin(makersBoard, maker, T0 - 3_000);
        long newer = w.pin(makersBoard, maker, T0 - 2_000);
        w.follow(u, author);
        w.interest(List.of(older, viaAuthor, newer), u);

        regenerator(5).regenerate(u);
        assertThat(pins(pools.best(u, Source.INTERESTS, 10))).containsExactlyInAnyOrder(newer, older);
        assertThat(pins(pools.best(u, Source.FOLLOWED_USER, 10))).containsExactly(viaAuthor);
    }
}
