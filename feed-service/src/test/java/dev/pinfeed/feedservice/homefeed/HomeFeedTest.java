package dev.pinfeed.feedservice.homefeed;

import static dev.pinfeed.feedservice.homefeed.HomeFeedFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.contentgenerator.ContentGenerator;
import dev.pinfeed.contentgenerator.GeneratorSettings;
import dev.pinfeed.contentgenerator.PoolRegenerator;
import dev.pinfeed.feedstore.FeedPage;
import dev.pinfeed.feedstore.FeedPosition;
import dev.pinfeed.feedstore.GeneratorState;
import dev.pinfeed.feedstore.MaterializedFeedStore;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.scoring.WeightedScorer;
import dev.pinfeed.followergraph.GraphCommand;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HomeFeedTest {

    private HomeFeedFixture f = new HomeFeedFixture();

    @AfterEach
    void close() {
        f.close();
    }

    /** A chunk id older than anything a feed generates now. */
    private static long older(int n) {
        return (T0 - 1_000_000 + n) << 16;
    }

    private static List<Long> pins(HomeFeed.Page page) {
        return page.items().stream().map(i -> i.pin().id()).toList();
    }

    private List<Long> feedPins(long user) {
        return f.feeds.all(user).stream().map(p -> p.item().pinId()).toList();
    }

    private List<Long> poolPins(long user) {
        return f.pools.all(user).stream().map(PoolEntry::pinId).toList();
    }

    @Test
    void newPinsComeFirstThenTheMaterializedFeedAndAfterTheAnswerTheChunkMovesFromThePoolsIntoTheFeed() {
        long u = f.user();
        long old1 = f.pin(), old2 = f.pin(), new1 = f.pin(), new2 = f.pin();
        f.materialized(u, older(1), old1, old2);
        f.pool(u, Source.FOLLOWED_BOARD, new1, new2);

        HomeFeed.Page page = f.feed().read(u, null, 10);
        assertThat(pins(page)).containsExactly(new1, new2, old1, old2);
        assertThat(page.cursor()).isNull();
        assertThat(page.items().get(0).source()).isEqualTo(Source.FOLLOWED_BOARD);
        assertThat(page.items().get(0).score()).isEqualTo(100.0);
        assertThat(page.items().get(2).source()).isEqualTo(Source.FOLLOWED_USER);
        assertThat(f.feeds.pending(u)).as("journaled before the answer").hasSize(1);
        assertThat(poolPins(u)).as("still pooled until after the answer").containsExactlyInAnyOrder(new1, new2);

        f.later.runAll();
        assertThat(f.feeds.pending(u)).isEmpty();
        assertThat(poolPins(u)).isEmpty();
        assertThat(feedPins(u)).containsExactly(new1, new2, old1, old2);
        assertThat(f.feeds.state(u)).contains(new GeneratorState(25, T0, 4));
        assertThat(f.counts.chunkSizes).containsExactly(2);
    }

    @Test
    void threePagesWithANewChunkBetweenThemSkipNothingAndRepeatNothing() {
        long u = f.user();
        long[] old = LongStream.range(0, 4).map(i -> f.pin()).toArray();
        long[] fresh = LongStream.range(0, 5).map(i -> f.pin()).toArray();
        f.materialized(u, older(1), old);
        f.pool(u, Source.FOLLOWED_USER, fresh);
        HomeFeed feed = f.feed();

        HomeFeed.Page first = feed.read(u, null, 3);
        assertThat(pins(first)).containsExactly(fresh[0], fresh[1], fresh[2]);
        assertThat(first.cursor()).isNotNull();

        // Meanwhile new pins arrive and another device opens the feed: a second chunk goes on top.
        long late1 = f.pin(), late2 = f.pin();
        f.clock.advance(java.time.Duration.ofSeconds(5));
        f.pool(u, Source.FOLLOWED_USER, late1, late2);
        assertThat(pins(feed.read(u, null, 2))).containsExactly(late1, late2);

        HomeFeed.Page second = feed.read(u, first.cursor(), 3);
        HomeFeed.Page third = feed.read(u, second.cursor(), 3);
        assertThat(pins(second)).containsExactly(fresh[3], fresh[4], old[0]);
        assertThat(pins(third)).containsExactly(old[1], old[2], old[3]);
        assertThat(third.cursor()).isNull();

        f.later.runAll();
        assertThat(feedPins(u)).containsExactly(late1, late2, fresh[0], fresh[1], fresh[2], fresh[3], fresh[4], old[0], old[1], old[2], old[3]);
        assertThat(poolPins(u)).isEmpty();
    }

    /** {@code target} as {@code port}, running {@code hook} before each call of {@code method}. */
    private static <T> T before(Class<T> port, T target, String method, Runnable hook) {
        return port.cast(Proxy.newProxyInstance(port.getClassLoader(), new Class<?>[] {port}, (proxy, m, args) -> {
            if (m.getName().equals(method)) hook.run();
            try {
                return m.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }));
    }

    /** A user with one materialized pin and one new pin in his pool. */
    private record OneOldOneNew(long user, long old, long fresh) {}

    private OneOldOneNew oneOldOneNew() {
        long u = f.user();
        long old = f.pin(), fresh = f.pin();
        f.materialized(u, older(1), old);
        f.pool(u, Source.FOLLOWED_USER, fresh);
        return new OneOldOneNew(u, old, fresh);
    }

    @Test
    void theChunkIsJournaledWhileThePagesPinsAreRead() {
        OneOldOneNew x = oneOldOneNew();
        CountDownLatch pinsRead = new CountDownLatch(1);
        // The journal write goes on only once the pins are being read: one after the other, it fails and the chunk is not shown.
        HomeFeed feed = f.feed(feeds -> before(MaterializedFeedStore.class, feeds, "journal", () -> {
            try {
                if (!pinsRead.await(5, TimeUnit.SECONDS)) throw new StoreUnavailableException("hbase-primary", "journal before the pins");
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }), canonical -> before(CanonicalReads.class, canonical, "livePins", pinsRead::countDown));

        HomeFeed.Page page = feed.read(x.user(), null, 10);
        assertThat(f.counts.fallbacks).isEmpty();
        assertThat(pins(page)).containsExactly(x.fresh(), x.old());
        assertThat(f.feeds.pending(x.user())).hasSize(1);
    }

    @Test
    void aChunkWhoseJournalWriteFailsIsNotShownAndItsPinsStayInThePools() {
        OneOldOneNew x = oneOldOneNew();
        HomeFeed feed = f.feed(feeds -> before(MaterializedFeedStore.class, feeds, "journal", () -> {
            throw new StoreUnavailableException("hbase-primary", "down");
        }), canonical -> canonical);

        HomeFeed.Page page = feed.read(x.user(), null, 10);
        assertThat(pins(page)).containsExactly(x.old());
        assertThat(f.counts.fallbacks).containsEntry(HomeFeedListener.Fallback.ERROR, 1);
        f.later.runAll();
        assertThat(f.feeds.pending(x.user())).isEmpty();
        assertThat(poolPins(x.user())).containsExactly(x.fresh());
        assertThat(f.feeds.state(x.user()).orElseThrow().nextChunkSize()).as("larger after the failure").isEqualTo(50);
    }

    @Test
    void aJournalWritePastItsDeadlineIsNotWaitedForAndTheChunkShowsOnTheNextRead() throws Exception {
        OneOldOneNew x = oneOldOneNew();
        CountDownLatch released = new CountDownLatch(1);
        // A cluster that has just died: the write hangs (here until released) instead of failing.
        HomeFeed feed = f.feed(feeds -> before(MaterializedFeedStore.class, feeds, "journal", () -> {
            try {
                released.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }), canonical -> canonical, f.settings.withJournalDeadline(Duration.ofMillis(50)));

        HomeFeed.Page page = feed.read(x.user(), null, 10);
        assertThat(pins(page)).as("answered without waiting for the write").containsExactly(x.old());
        assertThat(f.counts.fallbacks).containsEntry(HomeFeedListener.Fallback.DEADLINE, 1);
        released.countDown();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !f.feeds.pending(x.user()).isEmpty());
        f.later.runAll();
        assertThat(poolPins(x.user())).as("not shown: still pooled").containsExactly(x.fresh());

        // The write landed after all: the chunk is pending, and the next read completes and shows it, once.
        HomeFeed.Page next = f.feed().read(x.user(), null, 10);
        f.later.runAll();
        assertThat(pins(next)).containsExactly(x.fresh(), x.old());
        assertThat(poolPins(x.user())).isEmpty();
    }

    @Test
    void aFailingGeneratorServesTheMaterializedFeedAndTheNextChunkIsLarger() {
        long u = f.user();
        long old = f.pin();
        f.materialized(u, older(1), old);
        long[] pooled = LongStream.range(0, 60).map(i -> f.pin()).toArray();
        f.pool(u, Source.FOLLOWED_USER, pooled);

        HomeFeed.Page page = f.feed(DelegatingPoolStore::failingReads).read(u, null, 25);
        assertThat(pins(page)).containsExactly(old);
        assertThat(f.counts.fallbacks).containsEntry(HomeFeedListener.Fallback.ERROR, 1);
        f.later.runAll();
        assertThat(f.feeds.state(u)).contains(new GeneratorState(50, T0, 1));
        assertThat(poolPins(u)).hasSize(60);

        HomeFeed.Page next = f.feed().read(u, null, 25);
        assertThat(f.counts.chunkSizes).as("the larger chunk").containsExactly(50);
        assertThat(pins(next)).containsExactlyElementsOf(LongStream.of(pooled).limit(25).boxed().toList());
        f.later.runAll();
        assertThat(f.feeds.state(u).orElseThrow().nextChunkSize()).as("back to the default after a success").isEqualTo(25);
        assertThat(poolPins(u)).hasSize(10);
    }

    @Test
    void theChunkSizeDoublesUpToItsCap() {
        long u = f.user();
        HomeFeed failing = f.feed(DelegatingPoolStore::failingReads);
        List<Integer> sizes = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            failing.read(u, null, 25);
            f.later.runAll();
            sizes.add(f.feeds.state(u).orElseThrow().nextChunkSize());
        }
        assertThat(sizes).containsExactly(50, 100, 200, 200, 200);
    }

    /** A user with one materialized pin and one pooled, on a feed with the default 50 ms deadline, and a latch that holds generators. */
    private record LateCase(long user, long old, long pooled, CountDownLatch release) {}

    /** The default 50 ms deadline, for a generator over {@link Stuck} pools: it waits for the latch, so it surely misses it. */
    private static final Duration HELD_BACK_DEADLINE = HomeFeedSettings.defaults().generatorDeadline();

    private LateCase lateCase() {
        f.close();
        f = new HomeFeedFixture(); // the generous deadline: a view that must generate in time does, on a loaded box too
        long u = f.user();
        long old = f.pin(), pooled = f.pin();
        f.materialized(u, older(1), old);
        f.pool(u, Source.FOLLOWED_USER, pooled);
        return new LateCase(u, old, pooled, new CountDownLatch(1));
    }

    /** Runs the post-answer work until the late chunk's own ran (it is queued once the released generation finishes). */
    private void runLaterUntilTheLateChunkIs(boolean kept) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> { // a hang guard: the released generation runs on a real thread
            f.later.runAll();
            assertThat(f.counts.lateChunks()).containsExactly(kept);
        });
    }

    @Test
    void aGeneratorPastItsDeadlineServesTheMaterializedFeedAndItsLateChunkComesOnTheNextView() {
        LateCase c = lateCase();
        try {
            HomeFeed.Page page = f.feed(p -> new Stuck(p, c.release()), HELD_BACK_DEADLINE).read(c.user(), null, 25);
            assertThat(pins(page)).containsExactly(c.old());
            assertThat(f.counts.fallbacks).containsEntry(HomeFeedListener.Fallback.DEADLINE, 1);
        } finally {
            c.release().countDown();
        }
        runLaterUntilTheLateChunkIs(true);
        assertThat(f.feeds.state(c.user()).orElseThrow().nextChunkSize()).isEqualTo(50);
        // Seed 002, "eventually the user will see new Pins": the late chunk is materialized once done.
        assertThat(f.feeds.pending(c.user())).isEmpty();
        assertThat(poolPins(c.user())).as("taken out of the pools").isEmpty();
        assertThat(feedPins(c.user())).containsExactly(c.pooled(), c.old());
        assertThat(pins(f.feed().read(c.user(), null, 25))).as("the next view").containsExactly(c.pooled(), c.old());
    }

    @Test
    void aLateChunkIsDroppedWhenANewerFirstPageRanMeanwhileAndItsPinsStayInThePools() {
        LateCase c = lateCase();
        try {
            assertThat(pins(f.feed(p -> new Stuck(p, c.release()), HELD_BACK_DEADLINE).read(c.user(), null, 25))).containsExactly(c.old());
            f.later.runAll(); // this view's post-answer work: its state saved, the late chunk waits for the generator
            f.clock.advance(Duration.ofSeconds(1));
            HomeFeed.Page newer = f.feed().read(c.user(), null, 25); // a newer view generates in time and takes the pin
            assertThat(pins(newer)).containsExactly(c.pooled(), c.old());
        } finally {
            c.release().countDown();
        }
        runLaterUntilTheLateChunkIs(false);
        assertThat(feedPins(c.user())).as("once, from the newer view's chunk").containsExactly(c.pooled(), c.old());
    }

    @Test
    void aFirstPageWhileTheUsersGenerationRunsJoinsItAndItsLateChunkLandsOnceNotDropped() {
        LateCase c = lateCase();
        HomeFeed feed = f.feed(p -> new Stuck(p, c.release()), HELD_BACK_DEADLINE);
        try {
            assertThat(pins(feed.read(c.user(), null, 25))).containsExactly(c.old());
            f.later.runAll();
            f.clock.advance(Duration.ofSeconds(1));
            assertThat(pins(feed.read(c.user(), null, 25))).as("the same generation, still held back").containsExactly(c.old());
            f.later.runAll(); // the newer view's state: its read is newer than the first view's
        } finally {
            c.release().countDown();
        }
        runLaterUntilTheLateChunkIs(true);
        assertThat(f.counts.chunkSizes).as("one generation for both views").hasSize(1);
        assertThat(feedPins(c.user())).containsExactly(c.pooled(), c.old());
        assertThat(poolPins(c.user())).isEmpty();
    }

    @Test
    void aPageThatJoinedAGenerationInTimeShowsItsChunkAndTheStarterDoesNotLandItAgain() throws Exception {
        LateCase c = lateCase();
        HomeFeed feed = f.feed(p -> new Stuck(p, c.release()), Duration.ofSeconds(30));
        java.util.concurrent.ExecutorService readers = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            List<Thread> threads = java.util.Collections.synchronizedList(new ArrayList<>());
            java.util.concurrent.Callable<List<Long>> read = () -> {
                threads.add(Thread.currentThread());
                return pins(feed.read(c.user(), null, 25));
            };
            java.util.concurrent.Future<List<Long>> first = readers.submit(read);
            java.util.concurrent.Future<List<Long>> second = readers.submit(read);
            // Both views wait for the one held-back generation before it is let go.
            await().atMost(Duration.ofSeconds(30)).until(() -> threads.size() == 2
                    && threads.stream().allMatch(t -> t.getState() == Thread.State.TIMED_WAITING));
            c.release().countDown();
            List<List<Long>> views = List.of(first.get(30, TimeUnit.SECONDS), second.get(30, TimeUnit.SECONDS));
            assertThat(views).as("one view shows the chunk, the other the feed as it was")
                    .containsExactlyInAnyOrder(List.of(c.pooled(), c.old()), List.of(c.old()));
        } finally {
            c.release().countDown();
            readers.shutdownNow();
        }
        f.later.runAll();
        assertThat(f.counts.chunkSizes).as("one generation").hasSize(1);
        assertThat(f.counts.lateChunks()).as("nothing landed late: it was shown").isEmpty();
        assertThat(feedPins(c.user())).containsExactly(c.pooled(), c.old());
        assertThat(poolPins(c.user())).isEmpty();
    }

    @Test
    void aCrashBetweenJournalAndMaterializeNeitherLosesNorRepeatsAPin() {
        long u = f.user();
        long old = f.pin(), a = f.pin(), b = f.pin();
        f.materialized(u, older(1), old);
        f.pool(u, Source.FOLLOWED_USER, a, b);

        assertThat(pins(f.feed().read(u, null, 25))).containsExactly(a, b, old);
        f.later.loseAll(); // the process dies after the answer, before materializing
        assertThat(f.feeds.pending(u)).hasSize(1);
        assertThat(poolPins(u)).containsExactlyInAnyOrder(a, b);

        long c = f.pin();
        f.clock.advance(java.time.Duration.ofMinutes(1));
        f.pool(u, Source.FOLLOWED_USER, c);
        HomeFeed restarted = f.feed(); // a new process over the same stores
        HomeFeed.Page page = restarted.read(u, null, 25);
        assertThat(pins(page)).as("the new pin, then the replayed chunk once, then the old feed").containsExactly(c, a, b, old);
        assertThat(f.feeds.pending(u)).hasSize(1); // c's chunk, until after this answer
        f.later.runAll();
        assertThat(f.feeds.pending(u)).isEmpty();
        assertThat(poolPins(u)).isEmpty();
        assertThat(feedPins(u)).containsExactly(c, a, b, old);
    }

    @Test
    void whileThePoolsCannotBeWrittenAPendingChunkWaitsAndTheFeedIsStillServedWithoutRepeatingAPin() {
        long u = f.user();
        long old = f.pin(), a = f.pin(), b = f.pin();
        f.materialized(u, older(1), old);
        f.pool(u, Source.FOLLOWED_USER, a, b);
        assertThat(pins(f.feed().read(u, null, 25))).containsExactly(a, b, old);
        f.later.loseAll(); // shown and journaled, never materialized

        dev.pinfeed.feedstore.Outage outage = new dev.pinfeed.feedstore.Outage("hbase-primary");
        PoolStore down = outage.wrap(PoolStore.class, f.pools);
        HomeFeed duringOutage = new HomeFeed(down, f.feeds, f.lastReads, f.canonical, new ContentGenerator(f.pools, GeneratorSettings.defaults()),
                new PoolRegenerator(down, f.feeds, f.canonical, f.graph, new WeightedScorer(WeightedScorer.Settings.defaults(), f.clock),
                        f.settings.regeneration()), f.settings, f.clock, new ChunkIds(f.clock, new java.util.Random(7)), f.generation, f.later, f.counts);
        outage.start();
        assertThat(pins(duringOutage.read(u, null, 25))).as("answered, not a 503; no new chunk of the pending chunk's pins").containsExactly(old);
        assertThat(f.feeds.pending(u)).hasSize(1);
        outage.end();

        f.later.runAll();
        assertThat(pins(f.feed().read(u, null, 25))).containsExactly(a, b, old);
        f.later.runAll();
        assertThat(f.feeds.pending(u)).isEmpty();
        assertThat(feedPins(u)).containsExactly(a, b, old);
    }

    @Test
    void aCursorPageCompletesAChunkThatWasNeverMaterialized() {
        long u = f.user();
        long[] fresh = LongStream.range(0, 4).map(i -> f.pin()).toArray();
        f.pool(u, Source.FOLLOWED_USER, fresh);
        HomeFeed.Page first = f.feed().read(u, null, 2);
        f.later.loseAll();
        HomeFeed.Page second = f.feed().read(u, first.cursor(), 2);
        assertThat(pins(second)).containsExactly(fresh[2], fresh[3]);
        assertThat(second.cursor()).isNull();
        assertThat(poolPins(u)).isEmpty();
    }

    @Test
    void aDeletedPinIsLeftOutAndTakenOutOfTheFeed() {
        long u = f.user();
        long kept = f.pin(), deleted = f.pin(), later = f.pin();
        f.materialized(u, older(1), kept, deleted, later);
        f.canonical.deletePin(deleted);

        HomeFeed.Page page = f.feed().read(u, null, 2);
        assertThat(pins(page)).containsExactly(kept);
        assertThat(page.cursor()).as("the position after the deleted item: nothing is skipped").isNotNull();
        assertThat(pins(f.feed().read(u, page.cursor(), 2))).containsExactly(later);
        assertThat(f.counts.dropped).isEqualTo(1);
        f.later.runAll();
        assertThat(feedPins(u)).containsExactly(kept, later);
    }

    @Test
    void aReturningUsersPoolsAreRegeneratedFromWhatHeFollows() {
        long u = f.user();
        long author = f.user();
        long authorBoard = f.board(author);
        f.graph.apply(new GraphCommand.CreateBoard(4, T0 - 10_000, authorBoard, author));
        long shownBefore = f.pin(authorBoard, author, T0 - 5_000);
        long newer = f.pin(authorBoard, author, T0 - 1_000);
        long owner = f.user();
        long board = f.board(owner);
        long boardPin = f.pin(board, owner, T0 - 2_000);
        long otherBoardOfOwner = f.pin(f.board(owner), owner, T0 - 500);
        f.graph.apply(new GraphCommand.FollowUser(1, T0 - 10_000, u, author));
        f.graph.apply(new GraphCommand.CreateBoard(2, T0 - 10_000, board, owner));
        f.graph.apply(new GraphCommand.FollowBoard(3, T0 - 10_000, u, board, owner));
        f.materialized(u, older(1), shownBefore);
        f.feeds.saveState(u, new GeneratorState(25, T0 - Duration.ofDays(31).toMillis()));

        HomeFeed.Page page = f.feed().read(u, null, 25);
        assertThat(pins(page)).containsExactlyInAnyOrder(newer, boardPin, shownBefore);
        assertThat(pins(page).get(2)).as("the materialized feed last").isEqualTo(shownBefore);
        assertThat(pins(page)).doesNotContain(otherBoardOfOwner); // the owner is followed only through the board
        assertThat(page.items().stream().filter(i -> i.pin().id() == boardPin).findFirst().orElseThrow().source())
                .isEqualTo(Source.FOLLOWED_BOARD);
        assertThat(page.items().stream().filter(i -> i.pin().id() == newer).findFirst().orElseThrow().source())
                .isEqualTo(Source.FOLLOWED_USER);
    }

    /** The fan-out's active-receiver policy reads what a first page records; the state's read follows it. */
    @Test
    void aFirstPageRecordsTheReadForTheFanOutAndThenInTheState() {
        long u = f.user();
        f.materialized(u, older(1), f.pin(), f.pin());
        f.feeds.saveState(u, new GeneratorState(25, T0 - Duration.ofDays(3).toMillis()));
        f.clock.advance(Duration.ofSeconds(5));
        HomeFeed.Page first = f.feed().read(u, null, 1);
        assertThat(f.lastReads.lastReads(List.of(u))).as("not before the answer").isEmpty();
        f.later.runAll();
        long readAt = T0 + 5_000;
        assertThat(f.lastReads.lastReads(List.of(u))).containsOnly(Map.entry(u, readAt));
        assertThat(f.feeds.state(u)).map(GeneratorState::lastReadMillis).contains(readAt);

        f.clock.advance(Duration.ofSeconds(5));
        f.feed().read(u, first.cursor(), 1); // a next page is no new view
        f.later.runAll();
        assertThat(f.lastReads.lastReads(List.of(u))).containsOnly(Map.entry(u, readAt));
    }

    /**
     * A first page that shows nothing new and changes nothing writes no state and no read while the recorded read is less
     * than feed.last-read-resolution-ms old; past it, or with new pins, both are written again.
     */
    @Test
    void aFirstPageThatChangesNothingWritesNothingWithinTheLastReadResolution() {
        long u = f.user();
        f.materialized(u, older(1), f.pin(), f.pin());
        f.feed().read(u, null, 5);
        f.later.runAll();
        GeneratorState afterFirst = f.feeds.state(u).orElseThrow();
        assertThat(afterFirst.lastReadMillis()).isEqualTo(T0);

        f.clock.advance(Duration.ofSeconds(59));
        assertThat(f.feed().read(u, null, 5).items()).hasSize(2);
        f.later.runAll();
        assertThat(f.feeds.state(u)).contains(afterFirst);
        assertThat(f.lastReads.lastReads(List.of(u))).containsOnly(Map.entry(u, T0));

        long fresh = f.pin();
        f.pool(u, Source.FOLLOWED_USER, fresh);
        assertThat(f.feed().read(u, null, 5).items()).extracting(i -> i.pin().id()).startsWith(fresh);
        f.later.runAll();
        assertThat(f.feeds.state(u)).map(GeneratorState::lastReadMillis).contains(T0 + 59_000);
        assertThat(f.feeds.state(u)).map(GeneratorState::materializedItems).contains(afterFirst.materializedItems() + 1);

        f.clock.advance(Duration.ofSeconds(60));
        f.feed().read(u, null, 5);
        f.later.runAll();
        assertThat(f.feeds.state(u)).map(GeneratorState::lastReadMillis).contains(T0 + 119_000);
        assertThat(f.lastReads.lastReads(List.of(u))).containsOnly(Map.entry(u, T0 + 119_000));
    }

    /**
     * A record no replica confirmed may be lost in a failover, leaving the fan-out an older read than the
     * state's: so the state keeps its older read, and a user the fan-out skipped on it is still regenerated.
     */
    @Test
    void aReadNoReplicaConfirmedLeavesTheStatesReadWhereItWas() {
        long u = f.user();
        long before = T0 - Duration.ofDays(31).toMillis();
        f.feeds.saveState(u, new GeneratorState(25, before));
        f.lastReads.replicaConfirms(false);
        f.feed().read(u, null, 25);
        f.later.runAll();
        assertThat(f.lastReads.lastReads(List.of(u))).containsOnly(Map.entry(u, T0));
        assertThat(f.feeds.state(u)).map(GeneratorState::lastReadMillis).contains(before);
    }

    @Test
    void aUserWhoReadRecentlyIsNotRegenerated() {
        long u = f.user();
        long author = f.user();
        f.pin(f.board(author), author, T0 - 1_000);
        f.graph.apply(new GraphCommand.FollowUser(1, T0 - 10_000, u, author));
        f.feeds.saveState(u, new GeneratorState(25, T0 - Duration.ofDays(29).toMillis()));
        assertThat(f.feed().read(u, null, 25).items()).isEmpty();
        assertThat(poolPins(u)).isEmpty();
    }

    @Test
    void cursorsRoundTripAndForeignOnesAreRefused() {
        FeedPosition p = new FeedPosition(123_456_789_012L, 7);
        assertThat(FeedCursor.parse(FeedCursor.of(p))).isEqualTo(p);
        long u = f.user();
        for (String bad : List.of("nope!", "AAAA", FeedCursor.of(p).substring(1))) {
            assertThatThrownBy(() -> f.feed().read(u, bad, 10)).as(bad).isInstanceOf(FeedCursor.BadCursorException.class);
        }
    }

    @Test
    void theFeedIsTrimmedToItsMaximumAfterTheAnswer() {
        // The fixture's generous deadline: the chunk must be generated in time, on a loaded box too.
        HomeFeedFixture small = new HomeFeedFixture(new HomeFeedSettings(25, 200, Duration.ofSeconds(30), Duration.ofSeconds(30), 3, 30, 200, 10, 500, 450, Duration.ofMinutes(1)));
        try {
            long u = small.user();
            long o1 = small.pin(), o2 = small.pin(), n1 = small.pin(), n2 = small.pin();
            small.materialized(u, older(1), o1, o2);
            small.pool(u, Source.FOLLOWED_USER, n1, n2);
            small.feed().read(u, null, 25);
            small.later.runAll();
            assertThat(small.feeds.all(u).stream().map(FeedPage.Positioned::item).map(i -> i.pinId()).toList()).containsExactly(n1, n2, o1);
        } finally {
            small.close();
        }
    }

    @Test
    void theFeedIsScannedToTrimItOnlyWhenItsSizeIsUnknownOrMayExceedTheMaximum() {
        HomeFeedFixture small = new HomeFeedFixture(new HomeFeedSettings(2, 200, Duration.ofSeconds(30), Duration.ofSeconds(30), 5, 30, 200, 10, 500, 450, Duration.ofMinutes(1)));
        try {
            long u = small.user();
            small.materialized(u, older(1), small.pin(), small.pin());
            HomeFeed feed = small.feed();
            small.pool(u, Source.FOLLOWED_USER, small.pin(), small.pin());
            feed.read(u, null, 25);
            small.later.runAll();
            assertThat(small.feeds.trims()).as("no saved state: the size is learned by a trim").isEqualTo(1);
            assertThat(small.feeds.state(u).orElseThrow().materializedItems()).isEqualTo(4);

            small.pool(u, Source.FOLLOWED_USER, small.pin());
            feed.read(u, null, 25);
            small.later.runAll();
            assertThat(small.feeds.trims()).as("5 items: at the maximum, not past it").isEqualTo(1);
            assertThat(small.feeds.state(u).orElseThrow().materializedItems()).isEqualTo(5);
            assertThat(small.feeds.all(u)).hasSize(5);

            small.pool(u, Source.FOLLOWED_USER, small.pin(), small.pin());
            feed.read(u, null, 25);
            small.later.runAll();
            assertThat(small.feeds.trims()).isEqualTo(2);
            assertThat(small.feeds.all(u)).hasSize(5);
            assertThat(small.feeds.state(u).orElseThrow().materializedItems()).isEqualTo(5);
        } finally {
            small.close();
        }
    }

    /** Pools whose reads wait until released: the generator misses any deadline. */
    static final class Stuck extends DelegatingPoolStore {
        private final CountDownLatch release;

        Stuck(PoolStore pools, CountDownLatch release) {
            super(pools);
            this.release = release;
        }

        @Override
        public List<PoolEntry> best(long userId, Source source, int n) {
            try {
                release.await(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return super.best(userId, source, n);
        }
    }
}
