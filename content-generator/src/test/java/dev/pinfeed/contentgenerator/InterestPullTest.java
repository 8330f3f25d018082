package dev.pinfeed.contentgenerator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.feedstore.CelebrityPins.RecentPin;
import dev.pinfeed.feedstore.InMemoryInterestPins;
import dev.pinfeed.feedstore.InMemoryPoolStore;
import dev.pinfeed.feedstore.MutableClock;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.scoring.Candidate;
import dev.pinfeed.feedstore.scoring.PinFacts;
import dev.pinfeed.feedstore.scoring.WeightedScorer;
import dev.pinfeed.followergraph.GraphCommand;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The read half of popular interests over the in-memory graph, pools and interest-pins store. */
class InterestPullTest {

    private static final long T0 = HomeFeedWorld.T0;
    private final HomeFeedWorld w = new HomeFeedWorld();
    private final InMemoryPoolStore pools = w.pools;
    private final InMemoryInterestPins interestPins = new InMemoryInterestPins(200);
    private final MutableClock clock = new MutableClock(T0);
    private final WeightedScorer scorer = new WeightedScorer(WeightedScorer.Settings.defaults(), clock);
    private final InterestPull pull = new InterestPull(w.graph, interestPins, pools, scorer,
            new CelebrityPull.Settings(Duration.ofMinutes(10), Duration.ofSeconds(10), 500, 450, 100_000), 3, clock);

    /** An interest nobody has recorded pins of yet, followed by {@code followers}. */
    private long interest(long... followers) {
        return w.interest(List.of(), followers);
    }

    private long recorded(long interest, long board, long author, long createdAt) {
        long pin = w.pin(board, author, createdAt);
        interestPins.record(interest, new RecentPin(pin, author, board, createdAt));
        return pin;
    }

    private static List<Long> pins(List<PoolEntry> entries) {
        return entries.stream().map(PoolEntry::pinId).toList();
    }

    @Test
    void aFollowedPopularInterestsPinLandsInTheReadersInterestsPoolScoredByTheWorkersScorer() {
        long reader = w.user();
        long author = w.user();
        long board = w.board(author);
        long wood = interest(reader);
        long pin = recorded(wood, board, author, T0 - 60_000);

        assertThat(pull.pull(reader, 0)).isEqualTo(1);

        double expected = scorer.score(new Candidate(reader, Source.INTERESTS, new PinFacts(pin, board, author, T0 - 60_000), 0, 0));
        assertThat(pools.best(reader, Source.INTERESTS, 10)).containsExactly(
                new PoolEntry(reader, Source.INTERESTS, expected, pin, author, board, T0 - 60_000));
        assertThat(pull.pull(reader, 0)).as("remembered: not written again").isZero();
    }

    @Test
    void onlyFollowedInterestsArePulledEachPinOnceLessOwnPinsAndPinsOfFollowedBoardsOrOwners() {
        long reader = w.user();
        long friend = w.user();
        long stranger = w.user();
        long friendsBoard = w.board(friend);
        long strangersBoard = w.board(stranger);
        long readersBoard = w.board(reader);
        long followedBoardOwner = w.user();
        long followedBoard = w.board(followedBoardOwner);
        w.follow(reader, friend);
        w.followBoard(reader, followedBoard, followedBoardOwner);
        long wood = interest(reader);
        long clay = interest(reader);
        long glass = interest(); // he does not follow it
        long both = recorded(wood, strangersBoard, stranger, T0 - 1_000);
        interestPins.record(clay, new RecentPin(both, stranger, strangersBoard, T0 - 1_000));
        recorded(wood, friendsBoard, friend, T0 - 2_000);          // he follows its author: followed_user wins
        recorded(clay, followedBoard, followedBoardOwner, T0 - 3_000); // he follows its board: followed_board wins
        recorded(wood, readersBoard, reader, T0 - 4_000);          // his own
        recorded(glass, strangersBoard, stranger, T0 - 5_000);

        assertThat(pins(pull.plan(reader, 0))).containsExactly(both);
        assertThat(pull.plan(w.user(), 0)).as("a reader following no interest").isEmpty();
    }

    @Test
    void aPullTakesTheNewestFewOfEachInterest() {
        long reader = w.user();
        long author = w.user();
        long board = w.board(author);
        long wood = interest(reader);
        long clay = interest(reader);
        for (int i = 0; i < 5; i++) recorded(wood, board, author, T0 - 10_000 + i);
        long newestClay = recorded(clay, board, author, T0 - 20_000);

        List<Long> planned = pins(pull.plan(reader, 0));
        assertThat(planned).hasSize(4).contains(newestClay);
        assertThat(interestPins.recent(List.of(wood), 0, 3).get(wood)).extracting(RecentPin::pinId).allMatch(planned::contains);
    }

    @Test
    void afterAnUnfollowOfTheInterestNothingOfItIsPulled() {
        long reader = w.user();
        long author = w.user();
        long board = w.board(author);
        long wood = interest(reader);
        recorded(wood, board, author, T0 - 1_000);
        w.graph.apply(new GraphCommand.UnfollowInterest(9_999_999L, T0, reader, wood));

        assertThat(pull.pull(reader, 0)).isZero();
        assertThat(pools.all(reader)).isEmpty();
    }

    @Test
    void aReadPullsPinsFromItsLastReadMinusTheOverlapOnAndTheSetIsReadAgainOnlyAfterItsCacheTime() {
        long reader = w.user();
        long author = w.user();
        long board = w.board(author);
        long wood = interest(reader);
        assertThat(pull.plan(reader, 0)).isEmpty(); // the popular set, empty, is now cached
        long old = recorded(wood, board, author, T0 - Duration.ofHours(1).toMillis());
        long lateButRecent = recorded(wood, board, author, T0 - Duration.ofMinutes(5).toMillis());
        assertThat(pull.plan(reader, 0)).isEmpty();

        clock.advance(Duration.ofSeconds(10));
        assertThat(pins(pull.plan(reader, T0))).containsExactly(lateButRecent);
        assertThat(pins(pull.plan(reader, 0))).as("a first read").containsExactlyInAnyOrder(old, lateButRecent);
    }
}
