package dev.pinfeed.contentgenerator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.feedstore.CelebrityPins.RecentPin;
import dev.pinfeed.feedstore.InMemoryCelebrityPins;
import dev.pinfeed.feedstore.InMemoryPoolStore;
import dev.pinfeed.feedstore.MutableClock;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.scoring.Candidate;
import dev.pinfeed.feedstore.scoring.PinFacts;
import dev.pinfeed.feedstore.scoring.WeightedScorer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The read half of celebrities over the in-memory graph, pools and celebrity-pins store. */
class CelebrityPullTest {

    private static final long T0 = HomeFeedWorld.T0;
    private final HomeFeedWorld w = new HomeFeedWorld();
    private final InMemoryPoolStore pools = w.pools;
    private final InMemoryCelebrityPins celebrityPins = new InMemoryCelebrityPins(200);
    private final MutableClock clock = new MutableClock(T0);
    private final WeightedScorer scorer = new WeightedScorer(WeightedScorer.Settings.defaults(), clock);
    private final CelebrityPull pull = pull(100_000);

    private CelebrityPull pull(int remembered) {
        return new CelebrityPull(w.graph, celebrityPins, pools, scorer,
                new CelebrityPull.Settings(Duration.ofMinutes(10), Duration.ofSeconds(10), 500, 450, remembered), clock);
    }

    private long recorded(long board, long author, long createdAt) {
        long pin = w.pin(board, author, createdAt);
        celebrityPins.record(new RecentPin(pin, author, board, createdAt));
        return pin;
    }

    /** A reader, a celebrity and one board of the celebrity's. */
    private record Cast(long reader, long star, long board) {}

    private Cast cast() {
        long star = w.user();
        return new Cast(w.user(), star, w.board(star));
    }

    private static List<Long> pins(List<PoolEntry> entries) {
        return entries.stream().map(PoolEntry::pinId).toList();
    }

    @Test
    void aFollowedCelebritysPinsLandInTheReadersPoolScoredByTheWorkersScorerAsFollowedUser() {
        long reader = w.user();
        long star = w.user();
        long board = w.board(star);
        long pin = recorded(board, star, T0 - 60_000);
        w.follow(reader, star);

        assertThat(pull.pull(reader, 0)).isEqualTo(1);

        List<PoolEntry> pool = pools.best(reader, Source.FOLLOWED_USER, 10);
        double expected = scorer.score(new Candidate(reader, Source.FOLLOWED_USER, new PinFacts(pin, board, star, T0 - 60_000), 0, 0));
        assertThat(pool).containsExactly(new PoolEntry(reader, Source.FOLLOWED_USER, expected, pin, star, board, T0 - 60_000));
    }

    @Test
    void onlyFollowedCelebritiesAndFollowedBoardsArePulledAndABoardOnlyFollowerGetsFollowedBoard() {
        long reader = w.user();
        long star = w.user();
        long other = w.user();
        long recipes = w.board(star);
        long travel = w.board(star);
        long garden = w.board(other);
        long kept = recorded(recipes, star, T0 - 1_000);
        recorded(travel, star, T0 - 2_000);             // its board unfollowed
        recorded(garden, other, T0 - 3_000);            // a celebrity he does not follow
        long boardOnly = w.user();
        w.follow(reader, star);
        w.unfollowBoard(reader, travel, star);
        w.followBoard(boardOnly, travel, star);

        assertThat(pins(pull.plan(reader, 0))).containsExactly(kept);
        List<PoolEntry> theirs = pull.plan(boardOnly, 0);
        assertThat(theirs).extracting(PoolEntry::source).containsExactly(Source.FOLLOWED_BOARD);
        assertThat(pins(pull.plan(w.user(), 0))).as("a reader following nobody").isEmpty();
    }

    @Test
    void afterAnUnfollowNothingOfTheCelebrityIsPulled() {
        long reader = w.user();
        long star = w.user();
        long board = w.board(star);
        w.follow(reader, star);
        recorded(board, star, T0 - 1_000);
        w.unfollow(reader, star);

        assertThat(pull.pull(reader, 0)).isZero();
        assertThat(pools.all(reader)).isEmpty();
    }

    @Test
    void aRemovedPinIsNotPulledAndAShownPinIsNeverWrittenBack() {
        long reader = w.user();
        long star = w.user();
        long board = w.board(star);
        w.follow(reader, star);
        long deleted = recorded(board, star, T0 - 2_000);
        long shown = recorded(board, star, T0 - 1_000);
        celebrityPins.remove(star, deleted);

        pull.pull(reader, 0);
        assertThat(pins(pools.all(reader))).containsExactly(shown);
        pools.removeShown(reader, List.of(shown)); // the feed service showed it
        pull.pull(reader, 0);                      // the next read pulls again
        assertThat(pools.all(reader)).isEmpty();
    }

    @Test
    void aReadPullsPinsFromItsLastReadMinusTheOverlapOn() {
        long reader = w.user();
        long star = w.user();
        long board = w.board(star);
        w.follow(reader, star);
        long old = recorded(board, star, T0 - Duration.ofHours(1).toMillis());
        long lateButRecent = recorded(board, star, T0 - Duration.ofMinutes(5).toMillis());

        assertThat(pins(pull.plan(reader, T0))).containsExactly(lateButRecent);
        assertThat(pins(pull.plan(reader, 0))).as("a first read").containsExactlyInAnyOrder(old, lateButRecent);
    }

    @Test
    void theCelebritySetIsReadAgainOnlyAfterItsCacheTime() {
        long reader = w.user();
        long star = w.user();
        long board = w.board(star);
        w.follow(reader, star);
        assertThat(pull.plan(reader, 0)).isEmpty(); // the set, empty, is now cached
        recorded(board, star, T0 - 1_000);
        assertThat(pull.plan(reader, 0)).isEmpty();
        clock.advance(Duration.ofSeconds(10));
        assertThat(pull.plan(reader, 0)).hasSize(1);
    }

    @Test
    void aRepeatPullWritesOnlyWhatIsNewToTheReaderOrComesWithAnotherSource() {
        Cast c = cast();
        long reader = c.reader();
        long first = recorded(c.board(), c.star(), T0 - 2_000);
        w.followBoard(reader, c.board(), c.star());
        assertThat(pull.pull(reader, 0)).isEqualTo(1);
        double scoredFirst = pools.all(reader).get(0).score();

        clock.advance(Duration.ofMinutes(1));
        long second = recorded(c.board(), c.star(), T0 - 1_000);
        assertThat(pull.pull(reader, 0)).as("the second pin only").isEqualTo(1);
        assertThat(pools.all(reader)).extracting(PoolEntry::pinId).containsExactlyInAnyOrder(first, second);
        assertThat(pools.all(reader).stream().filter(e -> e.pinId() == first).findFirst().orElseThrow().score())
                .as("not written again, so not re-scored").isEqualTo(scoredFirst);

        w.follow(reader, c.star()); // now explicit: both pins go to followed_user
        assertThat(pull.pull(reader, 0)).isEqualTo(2);
        assertThat(pools.all(reader)).extracting(PoolEntry::source).containsOnly(Source.FOLLOWED_USER);
        assertThat(pull.pull(reader, 0)).isZero();
    }

    @Test
    void withNothingRememberedEveryPullWritesEverythingAgain() {
        CelebrityPull forgetful = pull(0);
        Cast c = cast();
        recorded(c.board(), c.star(), T0 - 2_000);
        recorded(c.board(), c.star(), T0 - 1_000);
        w.follow(c.reader(), c.star());

        assertThat(forgetful.pull(c.reader(), 0)).isEqualTo(2);
        assertThat(forgetful.pull(c.reader(), 0)).isEqualTo(2);
        assertThat(pools.all(c.reader())).hasSize(2);
    }
}
