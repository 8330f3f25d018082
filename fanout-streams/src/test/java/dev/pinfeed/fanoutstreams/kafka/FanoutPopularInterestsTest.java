package dev.pinfeed.fanoutstreams.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.events.FanoutAction;
import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.events.FanoutReceiver;
import dev.pinfeed.events.FanoutSource;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinDeleted;
import dev.pinfeed.fanoutstreams.FanoutSettings;
import dev.pinfeed.feedstore.CelebrityPins;
import dev.pinfeed.feedstore.CelebrityPins.RecentPin;
import dev.pinfeed.feedstore.InMemoryInterestPins;
import dev.pinfeed.feedstore.InMemoryLastReadStore;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.sharded.InMemoryGraphStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Popular interests (fanout.popular-interest-followers): a pin carrying one is recorded for its followers to pull, not sent to them. */
class FanoutPopularInterestsTest {

    private static final long ANA = 1_001;
    private static final long RECIPES = 2_001;
    private static final long WOOD = 3_001, CLAY = 3_002;

    @TempDir
    Path stateDir;

    private final InMemoryGraphStore graphStore = new InMemoryGraphStore();
    private final TestGraph graph = new TestGraph(graphStore);
    private final InMemoryInterestPins interestPins = new InMemoryInterestPins(200);
    private FanoutDriver driver;

    private FanoutDriver driver(long threshold) {
        driver = new FanoutDriver(FanoutSettings.defaults().withPopularInterestFollowers(threshold), graphStore, new InMemoryLastReadStore(),
                CelebrityPins.NONE, interestPins, stateDir, Runnable::run);
        return driver;
    }

    @AfterEach
    void close() {
        if (driver != null) driver.close();
    }

    private void followInterest(long user, long interest) {
        long v = FanoutDriver.START + user * 10 + interest;
        graphStore.apply(new GraphCommand.FollowInterest(v, v, user, interest));
    }

    /** Wood: 20 000-20 004 (popular at 5); clay: 20 003-20 006 (not); 10 000-10 001 follow Ana, 10 000 wood too. */
    private void cast() {
        graph.board(RECIPES, ANA).followers(ANA, 10_000, 2);
        for (long u = 20_000; u < 20_004; u++) followInterest(u, WOOD);
        followInterest(10_000, WOOD);
        for (long u = 20_003; u < 20_007; u++) followInterest(u, CLAY);
    }

    private void created(long eventId, long pin, List<Long> interests) {
        driver.publish(new PinCreated(eventId, Instant.ofEpochMilli(FanoutDriver.START), ANA, pin, RECIPES, ANA, "bowl", null, null, null,
                interests));
    }

    private static Map<Long, FanoutSource> receivers(List<FanoutChunk> chunks) {
        Map<Long, FanoutSource> out = new HashMap<>();
        for (FanoutChunk c : chunks) for (FanoutReceiver r : c.getReceivers()) out.put(r.getUserId(), r.getSource());
        return out;
    }

    @Test
    void aPopularInterestsPinIsRecordedWithTwoWritesItsFollowersAreSentNothingAndCountAsReachedForLaterInterests() {
        cast();
        driver(5);

        created(90L, 801L, List.of(WOOD, CLAY));
        Map<Long, FanoutSource> got = receivers(driver.drain(20));

        // Ana's followers as followed_user; of clay's followers only those not following wood (20 003 pulls it from wood).
        assertThat(got).containsOnly(Map.entry(10_000L, FanoutSource.FOLLOWED_USER), Map.entry(10_001L, FanoutSource.FOLLOWED_USER),
                Map.entry(20_004L, FanoutSource.INTERESTS), Map.entry(20_005L, FanoutSource.INTERESTS), Map.entry(20_006L, FanoutSource.INTERESTS));
        assertThat(interestPins.recent(List.of(WOOD, CLAY), 0, 200))
                .containsOnly(Map.entry(WOOD, List.of(new RecentPin(801L, ANA, RECIPES, FanoutDriver.START))));
        assertThat(interestPins.popular()).containsExactly(WOOD);
        assertThat(interestPins.writes.get()).as("one pin, a constant number of writes").isEqualTo(2);
    }

    @Test
    void aReplayedPinIsRecordedOnceAndItsDeletionTakesItOutAndStillWalksThePopularInterestsFollowers() {
        cast();
        driver(5);
        created(90L, 801L, List.of(WOOD));
        driver.drain(20);
        created(90L, 801L, List.of(WOOD)); // a replay
        driver.drain(20);
        assertThat(interestPins.recent(List.of(WOOD), 0, 200).get(WOOD)).hasSize(1);

        driver.publish(new PinDeleted(92L, Instant.ofEpochMilli(FanoutDriver.START + 5), ANA, 801L, RECIPES, ANA, List.of(WOOD)));
        List<FanoutChunk> removal = driver.drain(20);

        assertThat(interestPins.recent(List.of(WOOD), 0, 200)).isEmpty();
        assertThat(removal).extracting(FanoutChunk::getAction).containsOnly(FanoutAction.REMOVE);
        // Pulled copies may wait in the pools of wood's followers: the REMOVE reaches them (and the board's receivers).
        assertThat(receivers(removal).keySet()).containsExactlyInAnyOrder(10_000L, 10_001L, 20_000L, 20_001L, 20_002L, 20_003L);
    }

    @Test
    void atZeroNoInterestIsPopular() {
        cast();
        driver(0);
        created(90L, 801L, List.of(WOOD));
        assertThat(receivers(driver.drain(20))).hasSize(2 + 4);
        assertThat(interestPins.writes.get()).isZero();
    }
}
