package dev.pinfeed.fanoutstreams.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.events.FanoutAction;
import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.FanoutReceiver;
import dev.pinfeed.events.FanoutSource;
import dev.pinfeed.events.UserCreated;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.eventsschema.DecodeLimits;
import dev.pinfeed.fanoutstreams.FanoutSettings;
import dev.pinfeed.fanoutstreams.FanoutStatus;
import dev.pinfeed.feedstore.InMemoryLastReadStore;
import dev.pinfeed.feedstore.LastReadStore;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.Page;
import dev.pinfeed.followergraph.Receiver;
import dev.pinfeed.followergraph.sharded.InMemoryGraphStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Queue;
import java.util.function.Function;
import java.util.stream.Collectors;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The topology in a TopologyTestDriver over the in-memory graph and feed stores. */
class FanoutTopologyTest {

    private static final long ANA = 1_001, BEN = 1_002;
    private static final long RECIPES = 2_001, TRAVEL = 2_002, GARDEN = 2_003;

    @TempDir
    Path stateDir;

    private final InMemoryGraphStore graphStore = new InMemoryGraphStore();
    private final TestGraph graph = new TestGraph(graphStore);
    private final InMemoryLastReadStore lastReads = new InMemoryLastReadStore();
    private FanoutDriver driver;

    @ParameterizedTest
    @CsvSource({"10, 10", "100, 100", "500, 100"})
    void anIdleStreamThreadWaitsInPollNoLongerThanATurnsInterval(long punctuateMs, String pollMs) {
        FanoutSettings d = FanoutSettings.defaults();
        FanoutSettings s = new FanoutSettings(d.applicationId(), d.inputTopic(), d.outputTopic(), d.deadLetterTopic(), d.chunkSize(),
                d.activeDays(), d.stepsPerTurn(), d.turnMaxMillis(), Duration.ofMillis(punctuateMs), d.readsPerStep(),
                d.bugAttempts(), d.threads(), d.fetchThreads(), d.readAheadPages(), stateDir, d.decodeLimits(), d.celebrityFollowers(),
                d.popularInterestFollowers());
        Properties p = FanoutTopology.properties(s, PinfeedConfig.of(new Properties()).with("kafka.bootstrap", "unused:9092"), "0",
                new FanoutMetrics(new SimpleMeterRegistry()),
                new FanoutStatus(Clock.systemUTC(), Duration.ofSeconds(10)));
        assertThat(p.getProperty(StreamsConfig.POLL_MS_CONFIG)).isEqualTo(pollMs);
    }

    private FanoutDriver driver(FanoutSettings settings) {
        return driver(settings, graphStore);
    }

    private FanoutDriver driver(FanoutSettings settings, GraphStore store) {
        driver = new FanoutDriver(settings, store, lastReads, stateDir);
        return driver;
    }

    @AfterEach
    void close() {
        if (driver != null) driver.close();
    }

    /** Each receiver with his source, over all chunks; fails on a receiver named twice. */
    private static Map<Long, FanoutSource> receivers(List<FanoutChunk> chunks) {
        Map<Long, FanoutSource> out = new HashMap<>();
        for (FanoutChunk c : chunks) {
            for (FanoutReceiver r : c.getReceivers()) {
                FanoutSource before = out.put(r.getUserId(), r.getSource());
                assertThat(before).as("receiver %d named twice (pin %d)", r.getUserId(), c.getPinId()).isNull();
            }
        }
        return out;
    }

    /** What the graph itself says: a full walk of receivers(board). */
    private Map<Long, FanoutSource> graphSays(long board) {
        Map<Long, FanoutSource> out = new HashMap<>();
        String cursor = null;
        do {
            Page<Receiver> page = graphStore.receivers(board, cursor, 7);
            page.items().forEach(r -> out.put(r.userId(), r.viaOwner() ? FanoutSource.FOLLOWED_USER : FanoutSource.FOLLOWED_BOARD));
            cursor = page.nextCursor();
        } while (cursor != null);
        return out;
    }

    private static List<FanoutChunk> of(List<FanoutChunk> chunks, long pin) {
        return chunks.stream().filter(c -> c.getPinId() == pin).toList();
    }

    @Test
    void receiversAndSourcesAreExactlyWhatTheGraphSaysForTheBoard() {
        graph.board(RECIPES, ANA).board(TRAVEL, ANA);
        graph.followers(ANA, 10, 5);             // users 10..14 follow Ana: all her boards
        graph.unfollowBoard(12, RECIPES, ANA);   // ... but 12 unfollowed her recipes
        graph.followBoard(20, RECIPES, ANA);     // 20 follows only the recipes board
        graph.followBoard(21, TRAVEL, ANA);      // 21 follows only travel: not a receiver of recipes
        driver(FanoutSettings.defaults());

        long event = driver.created(500, RECIPES, ANA);
        driver.turn();
        List<FanoutChunk> chunks = driver.chunks();

        assertThat(chunks).hasSize(1);
        FanoutChunk c = chunks.get(0);
        assertThat(c.getAction()).isEqualTo(FanoutAction.ADD);
        assertThat(c.getEventId()).isEqualTo(event);
        assertThat(c.getPinId()).isEqualTo(500);
        assertThat(c.getBoardId()).isEqualTo(RECIPES);
        assertThat(c.getAuthorId()).isEqualTo(ANA);
        assertThat(c.getPinCreatedAt()).isEqualTo(Instant.ofEpochMilli(FanoutDriver.START + event));
        assertThat(c.getChunkIndex()).isZero();
        assertThat(c.getLastChunk()).isTrue();
        assertThat(receivers(chunks))
                .isEqualTo(graphSays(RECIPES))
                .containsOnly(Map.entry(10L, FanoutSource.FOLLOWED_USER), Map.entry(11L, FanoutSource.FOLLOWED_USER),
                        Map.entry(13L, FanoutSource.FOLLOWED_USER), Map.entry(14L, FanoutSource.FOLLOWED_USER),
                        Map.entry(20L, FanoutSource.FOLLOWED_BOARD));
        assertThat(driver.metrics.pending()).isZero();
        assertThat(driver.counter("fanout.chunks", "action", "ADD")).isEqualTo(1);
        assertThat(driver.counter("fanout.receivers", "source", "FOLLOWED_USER")).isEqualTo(4);
        assertThat(driver.counter("fanout.receivers", "source", "FOLLOWED_BOARD")).isEqualTo(1);
    }

    @Test
    void aRepinsChunksNameItsParentEvenAcrossChunksAndAnOriginalsNone() {
        graph.board(RECIPES, ANA).followers(ANA, 10_000, 1_500);
        graph.board(GARDEN, BEN).followers(BEN, 20_000, 5);
        driver(FanoutSettings.defaults().withChunkSize(1_000));

        driver.publish(new PinCreated(90L, Instant.ofEpochMilli(FanoutDriver.START), ANA, 601L, RECIPES, ANA, "saved", null, null, 700L, List.of()));
        driver.created(602, GARDEN, BEN);
        List<FanoutChunk> all = driver.drain(20);

        assertThat(of(all, 601)).hasSize(2).allSatisfy(c -> assertThat(c.getParentPinId()).isEqualTo(700L));
        assertThat(receivers(of(all, 601))).hasSize(1_500);
        assertThat(of(all, 602)).singleElement().satisfies(c -> assertThat(c.getParentPinId()).isNull());
    }

    @Test
    void chunksAreBoundedIndexedInOrderAndOnlyTheLastSaysSo() {
        graph.board(RECIPES, ANA).followers(ANA, 10_000, 2_500);
        graph.board(GARDEN, BEN).followers(BEN, 20_000, 2_000); // an exact multiple: no empty trailer
        driver(FanoutSettings.defaults().withChunkSize(1_000));

        driver.created(501, RECIPES, ANA);
        driver.created(502, GARDEN, BEN);
        List<FanoutChunk> all = driver.drain(20);

        List<FanoutChunk> ana = of(all, 501);
        assertThat(ana).extracting(c -> c.getReceivers().size()).containsExactly(1_000, 1_000, 500);
        assertThat(ana).extracting(FanoutChunk::getChunkIndex).containsExactly(0, 1, 2);
        assertThat(ana).extracting(FanoutChunk::getLastChunk).containsExactly(false, false, true);
        assertThat(receivers(ana)).hasSize(2_500).isEqualTo(graphSays(RECIPES));

        List<FanoutChunk> ben = of(all, 502);
        assertThat(ben).extracting(c -> c.getReceivers().size()).containsExactly(1_000, 1_000);
        assertThat(ben).extracting(FanoutChunk::getLastChunk).containsExactly(false, true);
        assertThat(receivers(ben)).hasSize(2_000).isEqualTo(graphSays(GARDEN));
    }

    @Test
    void aPinsFirstChunkTravelsTheFastLaneAndItsLaterChunksTheBulkLane() {
        graph.board(RECIPES, ANA).followers(ANA, 10_000, 2_500);
        graph.board(GARDEN, BEN).followers(BEN, 20_000, 300);
        driver(FanoutSettings.defaults().withChunkSize(1_000).withStepsPerTurn(10));

        driver.created(501, RECIPES, ANA);
        driver.created(502, GARDEN, BEN);
        driver.turn();
        List<List<FanoutChunk>> lanes = driver.lanes();

        assertThat(lanes.get(0)).as("fast lane: every pin's first chunk, a small pin's only one")
                .extracting(c -> c.getPinId() + "/" + c.getChunkIndex()).containsExactlyInAnyOrder("501/0", "502/0");
        assertThat(lanes.get(1)).as("bulk lane: the big pin's later chunks, in order")
                .extracting(c -> c.getPinId() + "/" + c.getChunkIndex()).containsExactly("501/1", "501/2");
    }

    /** Whichever side of the big pin the small one sorts on: the walk is round-robin, not pin-id order. */
    @ParameterizedTest
    @CsvSource({"9000, 100", "100, 9000"})
    void aSmallFanOutGoesOutWithinOneTurnWhileABigOneIsStillRunning(long bigPin, long smallPin) {
        graph.board(RECIPES, ANA).followers(ANA, 10_000, 100); // 10 chunks of 10
        graph.board(GARDEN, BEN).followers(BEN, 20_000, 3);    // 1 chunk
        driver(FanoutSettings.defaults().withChunkSize(10).withStepsPerTurn(3));

        driver.created(bigPin, RECIPES, ANA); // the big one starts first
        driver.turn();
        assertThat(driver.chunks()).extracting(FanoutChunk::getChunkIndex).containsExactly(0, 1, 2);

        driver.created(smallPin, GARDEN, BEN);
        driver.turn();
        List<FanoutChunk> second = driver.chunks();
        assertThat(of(second, smallPin)).singleElement().satisfies(c -> {
            assertThat(c.getLastChunk()).isTrue();
            assertThat(c.getReceivers()).hasSize(3);
        });
        assertThat(of(second, bigPin)).hasSize(2).noneMatch(FanoutChunk::getLastChunk);

        List<FanoutChunk> rest = driver.drain(10);
        List<FanoutChunk> big = new ArrayList<>(of(second, bigPin));
        big.addAll(of(rest, bigPin));
        assertThat(big).extracting(FanoutChunk::getChunkIndex).containsExactly(3, 4, 5, 6, 7, 8, 9);
        assertThat(big.get(big.size() - 1).getLastChunk()).isTrue();
    }

    @Test
    void aTurnTakesTheReadyPagesAndNeverWaitsForTheOthers() {
        graph.board(RECIPES, ANA).followers(ANA, 10_000, 100); // 10 chunks of 10
        graph.board(GARDEN, BEN).followers(BEN, 20_000, 3);
        Queue<Runnable> fetchThreads = new ArrayDeque<>();
        driver = new FanoutDriver(FanoutSettings.defaults().withChunkSize(10).withReadAheadPages(1), graphStore, lastReads, stateDir,
                fetchThreads::add);

        driver.created(100, RECIPES, ANA);
        driver.created(9_000, GARDEN, BEN);
        driver.turn(); // asks for both first pages; nothing is read yet
        assertThat(driver.chunks()).isEmpty();
        assertThat(fetchThreads).hasSize(2);

        while (!fetchThreads.isEmpty()) fetchThreads.poll().run();
        driver.turn(); // the small pin's only page makes its chunk; the big one has half of what its first chunk needs

        assertThat(driver.chunks()).singleElement().satisfies(c -> {
            assertThat(c.getPinId()).isEqualTo(9_000);
            assertThat(c.getLastChunk()).isTrue();
        });
        assertThat(fetchThreads).as("the big one's next page, asked for").hasSize(1);
        for (int i = 0; i < 40 && driver.metrics.pending() > 0; i++) {
            while (!fetchThreads.isEmpty()) fetchThreads.poll().run();
            driver.turn();
        }
        assertThat(receivers(driver.chunks())).hasSize(100).isEqualTo(graphSays(RECIPES));
    }

    /**
     * With its pages read ahead, one turn sends several chunks of a big fan-out, in order: at the default
     * 4 pages more than one; at 1 page never more than one (the turn waits for the next page).
     */
    @ParameterizedTest
    @CsvSource({"4, 2, 4", "1, 0, 1"})
    void oneTurnSendsAsManyChunksOfAJobAsItsPagesReadAheadHold(int readAhead, int atLeast, int atMost) {
        graph.board(RECIPES, ANA).followers(ANA, 10_000, 100); // 10 chunks of 10
        Queue<Runnable> fetchThreads = new ArrayDeque<>();
        driver = new FanoutDriver(FanoutSettings.defaults().withChunkSize(10).withReadAheadPages(readAhead), graphStore, lastReads, stateDir,
                fetchThreads::add);

        driver.created(100, RECIPES, ANA);
        driver.turn(); // asks for the first page
        while (!fetchThreads.isEmpty()) fetchThreads.poll().run(); // each graph page read starts the next, up to the read-ahead
        driver.turn();

        List<Integer> sent = driver.chunks().stream().map(FanoutChunk::getChunkIndex).toList();
        assertThat(sent).hasSizeBetween(atLeast, atMost).isEqualTo(java.util.stream.IntStream.range(0, sent.size()).boxed().toList());
    }

    @Test
    void withMoreJobsThanStepsPerTurnEachTurnGoesOnWhereTheLastStopped() {
        graph.board(RECIPES, ANA).followers(ANA, 10_000, 50); // 5 chunks of 10 per pin
        driver(FanoutSettings.defaults().withChunkSize(10).withStepsPerTurn(2));
        for (long pin = 1; pin <= 5; pin++) driver.created(pin, RECIPES, ANA);

        driver.turn();
        driver.turn();
        driver.turn();

        assertThat(driver.chunks()).extracting(FanoutChunk::getPinId).containsExactly(1L, 2L, 3L, 4L, 5L, 1L);
    }

    @Test
    void aDeletedPinIsWithdrawnFromEveryCurrentReceiverInactiveOnesToo() {
        graph.board(RECIPES, ANA).followers(ANA, 10, 25).followBoard(40, RECIPES, ANA);
        lastReads.recordRead(11, FanoutDriver.START - 90L * 86_400_000); // inactive: no ADD, but a REMOVE
        driver(FanoutSettings.defaults().withChunkSize(10));

        driver.created(700, RECIPES, ANA);
        List<FanoutChunk> added = driver.drain(10);
        driver.deleted(700, RECIPES, ANA);
        List<FanoutChunk> removed = driver.drain(10);

        assertThat(receivers(added)).hasSize(25).doesNotContainKey(11L);
        assertThat(removed).allMatch(c -> c.getAction() == FanoutAction.REMOVE);
        assertThat(removed).extracting(FanoutChunk::getChunkIndex).containsExactly(0, 1, 2);
        assertThat(removed).extracting(FanoutChunk::getLastChunk).containsExactly(false, false, true);
        assertThat(receivers(removed)).hasSize(26).isEqualTo(graphSays(RECIPES));
        assertThat(removed.get(0).getPinCreatedAt()).as("unknown once the ADD is done").isEqualTo(Instant.EPOCH);
    }

    @Test
    void aDeleteDuringTheAddStopsItAndNoAddChunkFollowsTheRemoval() {
        graph.board(RECIPES, ANA).followers(ANA, 10, 50);
        driver(FanoutSettings.defaults().withChunkSize(10).withStepsPerTurn(2));

        long created = driver.created(800, RECIPES, ANA);
        driver.turn(); // 2 of 5 ADD chunks
        driver.deleted(800, RECIPES, ANA);
        List<FanoutChunk> all = driver.drain(10);

        assertThat(all).extracting(FanoutChunk::getAction)
                .containsExactly(FanoutAction.ADD, FanoutAction.ADD, FanoutAction.REMOVE, FanoutAction.REMOVE, FanoutAction.REMOVE,
                        FanoutAction.REMOVE, FanoutAction.REMOVE);
        List<FanoutChunk> removed = all.subList(2, 7);
        assertThat(receivers(removed)).hasSize(50);
        assertThat(removed.get(0).getPinCreatedAt()).as("taken from the pending ADD")
                .isEqualTo(Instant.ofEpochMilli(FanoutDriver.START + created));
    }

    @Test
    void receiversWhoHaveNotReadTheirFeedForActiveDaysGetNoAdd() {
        long day = 86_400_000L;
        graph.board(RECIPES, ANA).followers(ANA, 10, 6);
        lastReads.recordRead(10, FanoutDriver.START - 31 * day); // inactive
        lastReads.recordRead(11, FanoutDriver.START - 45 * day); // inactive
        lastReads.recordRead(12, FanoutDriver.START - 29 * day); // active
        // 13, 14 and 15 never read: active
        driver(FanoutSettings.defaults().withActiveDays(30));

        driver.created(900, RECIPES, ANA);
        List<FanoutChunk> chunks = driver.drain(5);

        assertThat(receivers(chunks).keySet()).containsExactlyInAnyOrder(12L, 13L, 14L, 15L);
        assertThat(driver.counter("fanout.inactive.skipped")).isEqualTo(2);
    }

    /**
     * A receiver found active is not looked up again for the author's next pin, until his activity
     * window could have closed: reading only moves a last read forward.
     */
    @Test
    void receiversKnownActiveAreNotLookedUpAgainUntilTheirWindowCouldClose() {
        long day = 86_400_000L;
        graph.board(RECIPES, ANA).followers(ANA, 10, 3);
        lastReads.recordRead(10, FanoutDriver.START - 29 * day); // active for one more day
        // 11 and 12 never read: active at least 30 days from now
        List<Long> asked = new ArrayList<>();
        LastReadStore counting = (LastReadStore) Proxy.newProxyInstance(LastReadStore.class.getClassLoader(),
                new Class<?>[] {LastReadStore.class}, (p, m, args) -> {
                    if (m.getName().equals("lastReads")) {
                        synchronized (asked) {
                            for (Object u : (Collection<?>) args[0]) asked.add((Long) u);
                        }
                    }
                    try {
                        return m.invoke(lastReads, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        driver = new FanoutDriver(FanoutSettings.defaults().withActiveDays(30), graphStore, counting, stateDir);

        driver.created(900, RECIPES, ANA);
        assertThat(receivers(driver.drain(5)).keySet()).containsExactlyInAnyOrder(10L, 11L, 12L);
        assertThat(asked).containsExactlyInAnyOrder(10L, 11L, 12L);

        asked.clear();
        driver.created(901, RECIPES, ANA);
        assertThat(receivers(driver.drain(5)).keySet()).containsExactlyInAnyOrder(10L, 11L, 12L);
        assertThat(asked).as("all three known active").isEmpty();

        driver.clock.advance(Duration.ofDays(2)); // 10 has not read since: his window closed; 11's and 12's have not
        driver.created(902, RECIPES, ANA);
        assertThat(receivers(driver.drain(5)).keySet()).containsExactlyInAnyOrder(11L, 12L);
        assertThat(asked).containsExactly(10L);
        assertThat(driver.counter("fanout.inactive.skipped")).isEqualTo(1);
    }

    @Test
    void withActiveDaysZeroEveryoneGetsTheAdd() {
        graph.board(RECIPES, ANA).followers(ANA, 10, 3);
        lastReads.recordRead(10, FanoutDriver.START - 400 * 86_400_000L);
        driver(FanoutSettings.defaults().withActiveDays(0));

        driver.created(901, RECIPES, ANA);

        assertThat(receivers(driver.drain(5)).keySet()).containsExactlyInAnyOrder(10L, 11L, 12L);
        assertThat(driver.counter("fanout.inactive.skipped")).isZero();
    }

    @Test
    void aFanOutWhoseReceiversAreAllInactiveSendsNothing() {
        graph.board(RECIPES, ANA).followers(ANA, 10, 2);
        lastReads.recordRead(10, FanoutDriver.START - 60 * 86_400_000L);
        lastReads.recordRead(11, FanoutDriver.START - 60 * 86_400_000L);
        driver(FanoutSettings.defaults());

        driver.created(902, RECIPES, ANA);

        assertThat(driver.drain(5)).isEmpty();
        assertThat(driver.counter("fanout.inactive.skipped")).isEqualTo(2);
    }

    @Test
    void poisonGoesToTheDeadLetterTopicUnchangedWithItsReasonAndTheAppGoesOn() {
        graph.board(RECIPES, ANA).followers(ANA, 10, 2);
        driver(FanoutSettings.defaults());
        byte[] garbage = "not avro".getBytes(StandardCharsets.UTF_8);

        driver.raw("77", garbage);
        driver.publish(new UserCreated(5L, Instant.ofEpochMilli(FanoutDriver.START), 6L, 60L, "ada", null));
        driver.created(903, RECIPES, ANA);

        List<TestRecord<byte[], byte[]>> dead = driver.deadLetters();
        assertThat(dead).hasSize(2);
        TestRecord<byte[], byte[]> undecodable = dead.get(0);
        assertThat(new String(undecodable.key(), StandardCharsets.UTF_8)).isEqualTo("77");
        assertThat(undecodable.value()).isEqualTo(garbage);
        assertThat(header(undecodable.headers(), DeadLetters.HEADER_REASON)).isEqualTo(DeadLetters.UNDECODABLE);
        assertThat(header(undecodable.headers(), DeadLetters.HEADER_ERROR)).contains("magic byte");
        assertThat(header(undecodable.headers(), DeadLetters.HEADER_SOURCE_TOPIC)).isEqualTo(driver.settings.inputTopic());
        assertThat(header(undecodable.headers(), DeadLetters.HEADER_SOURCE_PARTITION)).isEqualTo("0");
        assertThat(header(undecodable.headers(), DeadLetters.HEADER_SOURCE_OFFSET)).isEqualTo("0");
        assertThat(header(undecodable.headers(), DeadLetters.HEADER_CONSUMER)).isEqualTo(driver.settings.applicationId());
        TestRecord<byte[], byte[]> unexpected = dead.get(1);
        assertThat(header(unexpected.headers(), DeadLetters.HEADER_REASON)).isEqualTo(DeadLetters.UNEXPECTED_EVENT);
        assertThat(header(unexpected.headers(), DeadLetters.HEADER_ERROR)).contains("UserCreated");
        assertThat(header(unexpected.headers(), DeadLetters.HEADER_SOURCE_OFFSET)).isEqualTo("1");
        assertThat(new String(unexpected.key(), StandardCharsets.UTF_8)).isEqualTo("60");

        assertThat(receivers(driver.drain(5))).hasSize(2);
        assertThat(driver.meters.get("pinfeed.dead.letters").tags("reason", DeadLetters.UNDECODABLE).counter().count()).isEqualTo(1);
    }

    @Test
    void aPinEventOverTheConfiguredDecodingLimitsIsDeadLetteredWithTheLimitAndTheNextIsFannedOut() {
        graph.board(RECIPES, ANA).followers(ANA, 10, 2);
        Properties config = new Properties();
        config.setProperty(DecodeLimits.MAX_STRING_BYTES_KEY, "5");
        driver(FanoutSettings.from(PinfeedConfig.of(config)));

        driver.created(905, RECIPES, ANA); // details "pin 905": 7 bytes
        driver.created(9, RECIPES, ANA); // details "pin 9": 5 bytes

        List<TestRecord<byte[], byte[]>> dead = driver.deadLetters();
        assertThat(dead).hasSize(1);
        assertThat(header(dead.get(0).headers(), DeadLetters.HEADER_REASON)).isEqualTo(DeadLetters.UNDECODABLE);
        assertThat(header(dead.get(0).headers(), DeadLetters.HEADER_ERROR))
                .startsWith("string of 7 bytes exceeds the limit of 5 (events.decode.max-string-bytes)");
        assertThat(receivers(driver.drain(5))).hasSize(2);
    }

    @Test
    void aGraphOutageLeavesTheJobPendingAndItResumesWhereItStoppedWhenTheGraphIsBack() {
        graph.board(RECIPES, ANA).followers(ANA, 10, 30);
        boolean[] down = {false};
        driver(FanoutSettings.defaults().withChunkSize(10).withStepsPerTurn(1).withReadAheadPages(1), failing(graphStore, () -> down[0]));

        driver.created(904, RECIPES, ANA);
        driver.turn();
        List<FanoutChunk> before = driver.chunks();
        assertThat(before).hasSize(1);

        down[0] = true;
        for (int i = 0; i < 5; i++) driver.turn();
        // The page read ahead while the graph was up still goes out; nothing after it.
        List<FanoutChunk> during = driver.chunks();
        assertThat(during).extracting(FanoutChunk::getChunkIndex).containsExactly(1);
        assertThat(driver.metrics.pending()).isEqualTo(1);
        assertThat(driver.status.current()).singleElement().satisfies(o -> assertThat(o.store()).isEqualTo("redis001"));

        down[0] = false;
        List<FanoutChunk> after = driver.drain(10);
        List<FanoutChunk> all = new ArrayList<>(before);
        all.addAll(during);
        all.addAll(after);
        assertThat(all).extracting(FanoutChunk::getChunkIndex).containsExactly(0, 1, 2);
        assertThat(receivers(all)).hasSize(30);
    }

    @Test
    void aJobThatKeepsFailingIsDeadLetteredAsReadAndTheOthersGoOn() {
        graph.board(RECIPES, ANA).followers(ANA, 10, 3);
        graph.board(GARDEN, BEN).followers(BEN, 20, 3);
        GraphStore buggy = intercept(graphStore, (method, args) -> {
            if (method.equals("receivers") && (long) args[0] == GARDEN) throw new IllegalStateException("corrupt cursor");
            return null;
        });
        driver(FanoutSettings.defaults(), buggy);

        driver.created(905, RECIPES, ANA);
        driver.created(906, GARDEN, BEN);
        List<FanoutChunk> chunks = driver.drain(5);

        assertThat(chunks).extracting(FanoutChunk::getPinId).containsOnly(905L);
        List<TestRecord<byte[], byte[]>> dead = driver.deadLetters();
        assertThat(dead).singleElement().satisfies(d -> {
            assertThat(header(d.headers(), DeadLetters.HEADER_REASON)).isEqualTo(DeadLetters.PROCESSING_ERROR);
            assertThat(header(d.headers(), DeadLetters.HEADER_ERROR)).contains("corrupt cursor");
            assertThat(header(d.headers(), DeadLetters.HEADER_SOURCE_OFFSET)).isEqualTo("1");
            assertThat(new String(d.key(), StandardCharsets.UTF_8)).isEqualTo("906");
            assertThat(new dev.pinfeed.eventsschema.AvroEventDeserializer(driver.registry).deserialize("x", d.value()))
                    .isInstanceOfSatisfying(dev.pinfeed.events.PinCreated.class, p -> assertThat(p.getPinId()).isEqualTo(906));
        });
    }

    private static String header(Headers headers, String name) {
        Header h = headers.lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** {@code store} whose receivers() fails with an outage of redis001 while {@code down} says so. */
    private static GraphStore failing(GraphStore store, java.util.function.BooleanSupplier down) {
        return intercept(store, (method, args) -> {
            if (method.equals("receivers") && down.getAsBoolean()) throw new StoreUnavailableException("redis001", "Connection refused");
            return null;
        });
    }

    /** {@code store} with {@code before} run ahead of every call (it may throw). */
    private static GraphStore intercept(GraphStore store, java.util.function.BiFunction<String, Object[], Object> before) {
        return (GraphStore) Proxy.newProxyInstance(GraphStore.class.getClassLoader(), new Class<?>[] {GraphStore.class}, (p, m, args) -> {
            before.apply(m.getName(), args);
            try {
                return m.invoke(store, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    // ---- interests: after the board's receivers, each interest's followers, once each, the board's receivers winning

    private static final long WOOD = 3_001, CLAY = 3_002;

    private void followInterest(long user, long interest) {
        long v = FanoutDriver.START + user * 10 + interest;
        graphStore.apply(new dev.pinfeed.followergraph.GraphCommand.FollowInterest(v, v, user, interest));
    }

    @Test
    void aPinsInterestsReachTheirFollowersOnceEachAfterTheBoardsReceiversWhoKeepTheirSource() {
        graph.board(RECIPES, ANA).followers(ANA, 10_000, 3); // 10 000-10 002 follow Ana
        for (long u = 20_000; u < 20_005; u++) followInterest(u, WOOD);
        for (long u = 20_003; u < 20_008; u++) followInterest(u, CLAY); // 20 003 and 20 004 follow both
        followInterest(10_000, WOOD); // a follower of Ana too: he keeps followed_user
        followInterest(ANA, CLAY); // the author: not told of his own pin
        driver(FanoutSettings.defaults().withChunkSize(4));

        driver.publish(new PinCreated(90L, Instant.ofEpochMilli(FanoutDriver.START), ANA, 801L, RECIPES, ANA, "bowl", null, null, null,
                List.of(WOOD, CLAY)));
        List<FanoutChunk> chunks = driver.drain(20);

        Map<Long, FanoutSource> got = receivers(chunks); // fails on anyone named twice
        assertThat(got).hasSize(3 + 8);
        for (long u = 10_000; u < 10_003; u++) assertThat(got).containsEntry(u, FanoutSource.FOLLOWED_USER);
        for (long u = 20_000; u < 20_008; u++) assertThat(got).containsEntry(u, FanoutSource.INTERESTS);
        assertThat(got).doesNotContainKey(ANA);
        assertThat(chunks).extracting(FanoutChunk::getChunkIndex).containsExactly(0, 1, 2);
        assertThat(chunks).extracting(FanoutChunk::getLastChunk).containsExactly(false, false, true);
        assertThat(driver.counter("fanout.receivers", "source", "INTERESTS")).isEqualTo(8);
    }

    @Test
    void aDeletedPinsWithdrawalReachesTheFollowersOfTheInterestsItsDeleteNames() {
        graph.board(GARDEN, BEN).followers(BEN, 10_000, 2);
        for (long u = 30_000; u < 30_003; u++) followInterest(u, WOOD);
        driver(FanoutSettings.defaults().withChunkSize(100));
        driver.publish(new PinCreated(91L, Instant.ofEpochMilli(FanoutDriver.START), BEN, 802L, GARDEN, BEN, "stool", null, null, null,
                List.of(WOOD)));
        assertThat(receivers(driver.drain(20))).hasSize(5);

        driver.publish(new dev.pinfeed.events.PinDeleted(92L, Instant.ofEpochMilli(FanoutDriver.START + 5), BEN, 802L, GARDEN, BEN,
                List.of(WOOD)));
        List<FanoutChunk> removal = driver.drain(20);
        assertThat(removal).allSatisfy(c -> assertThat(c.getAction()).isEqualTo(dev.pinfeed.events.FanoutAction.REMOVE));
        assertThat(receivers(removal).keySet()).containsExactlyInAnyOrder(10_000L, 10_001L, 30_000L, 30_001L, 30_002L);
    }

    @Test
    void aPinWithoutInterestsWalksTheBoardAlone() {
        graph.board(GARDEN, BEN).followers(BEN, 10_000, 2);
        followInterest(30_000, WOOD);
        driver(FanoutSettings.defaults().withChunkSize(100));
        driver.created(803, GARDEN, BEN);
        assertThat(receivers(driver.drain(20)).keySet()).containsExactlyInAnyOrder(10_000L, 10_001L);
    }
}
