package dev.pinfeed.fanoutstreams.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.events.FanoutAction;
import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.fanoutstreams.FanoutSettings;
import dev.pinfeed.feedstore.CelebrityPins.RecentPin;
import dev.pinfeed.feedstore.InMemoryCelebrityPins;
import dev.pinfeed.feedstore.InMemoryLastReadStore;
import dev.pinfeed.followergraph.sharded.InMemoryGraphStore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Celebrities (fanout.celebrity-followers): their pins go to the celebrity-pins store, not to a fan-out. */
class FanoutCelebrityTest {

    private static final long ANA = 1_001, BEN = 1_002;
    private static final long RECIPES = 2_001, TRAVEL = 2_002;

    @TempDir
    Path stateDir;

    private final InMemoryGraphStore graphStore = new InMemoryGraphStore();
    private final TestGraph graph = new TestGraph(graphStore);
    private final InMemoryCelebrityPins celebrityPins = new InMemoryCelebrityPins(200);
    private FanoutDriver driver;

    private FanoutDriver driver(long threshold) {
        driver = new FanoutDriver(FanoutSettings.defaults().withCelebrityFollowers(threshold), graphStore, new InMemoryLastReadStore(),
                celebrityPins, stateDir, Runnable::run);
        return driver;
    }

    @AfterEach
    void close() {
        if (driver != null) driver.close();
    }

    @Test
    void aCelebritysPinIsRecordedWithTwoWritesAndSentToNobodyWhileASmallerAuthorsIsFannedOut() {
        graph.board(RECIPES, ANA).board(TRAVEL, BEN);
        graph.followers(ANA, 10, 2);        // two explicit followers...
        graph.followBoard(30, RECIPES, ANA); // ...and one through a board: 3 followers, the threshold
        graph.followers(BEN, 40, 2);
        driver(3);

        driver.created(500, RECIPES, ANA);
        driver.created(501, TRAVEL, BEN);
        List<FanoutChunk> chunks = driver.drain(10);

        assertThat(chunks).extracting(FanoutChunk::getPinId).containsExactly(501L);
        assertThat(celebrityPins.recent(List.of(ANA, BEN), 0)).containsOnlyKeys(ANA);
        RecentPin recorded = celebrityPins.recent(List.of(ANA), 0).get(ANA).get(0);
        assertThat(recorded.pinId()).isEqualTo(500);
        assertThat(recorded.boardId()).isEqualTo(RECIPES);
        assertThat(recorded.createdAtMillis()).isEqualTo(FanoutDriver.START + 1);
        assertThat(celebrityPins.writes.get()).as("one pin, a constant number of writes").isEqualTo(2);
        assertThat(celebrityPins.celebrities()).containsExactly(ANA);
    }

    @Test
    void aReplayedCelebrityPinIsRecordedOnceAndItsDeletionTakesItOutAndStillWalksTheReceivers() {
        graph.board(RECIPES, ANA);
        graph.followers(ANA, 10, 4);
        driver(3);

        driver.created(500, RECIPES, ANA);
        driver.drain(10);
        driver.created(500, RECIPES, ANA); // a replay: the job is gone, so it runs again, idempotently
        assertThat(driver.drain(10)).isEmpty();
        assertThat(celebrityPins.recent(List.of(ANA), 0).get(ANA)).hasSize(1);

        driver.deleted(500, RECIPES, ANA);
        List<FanoutChunk> removes = driver.drain(10);
        assertThat(celebrityPins.recent(List.of(ANA), 0)).isEmpty();
        // Pulled copies may wait in readers' pools: the REMOVE still reaches every receiver.
        assertThat(removes).extracting(FanoutChunk::getAction).containsOnly(FanoutAction.REMOVE);
        assertThat(removes.stream().mapToInt(c -> c.getReceivers().size()).sum()).isEqualTo(4);
    }

    @Test
    void atZeroNobodyIsACelebrity() {
        graph.board(RECIPES, ANA);
        graph.followers(ANA, 10, 50);
        driver(0);

        driver.created(500, RECIPES, ANA);
        List<FanoutChunk> chunks = driver.drain(10);

        assertThat(chunks.stream().mapToInt(c -> c.getReceivers().size()).sum()).isEqualTo(50);
        assertThat(celebrityPins.writes.get()).isZero();
    }
}
