package dev.pinfeed.feedstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * {@link ReadAheadFeedStore} over the in-memory store: which pages come from memory, and when what it kept goes. Writes
 * made to the store underneath stand for another process's; its answers to this process's own writes are the
 * contract's ({@code InMemoryStoresTest.ReadAhead}, {@code HBaseStoresIT.ReadAhead}).
 */
class ReadAheadFeedStoreTest {

    private static final long USER = 42;
    private final MutableClock clock = new MutableClock(1_767_225_600_000L);
    private final List<Boolean> lookups = new ArrayList<>();
    private final List<Boolean> firstPageLookups = new ArrayList<>();
    private final InMemoryMaterializedFeedStore store = new InMemoryMaterializedFeedStore();

    private ReadAheadFeedStore readAhead(MaterializedFeedStore under, int pages, int maxUsers) {
        return new ReadAheadFeedStore(under, pages, Duration.ofSeconds(5), maxUsers, clock, lookups::add);
    }

    /** Pages after a position kept 5 s, first page views {@code firstPageTtl}. */
    private ReadAheadFeedStore keepingFirstPages(MaterializedFeedStore under, Duration firstPageTtl) {
        return new ReadAheadFeedStore(under, 4, Duration.ofSeconds(5), firstPageTtl, 100, clock, new ReadAheadFeedStore.Listener() {
            @Override
            public void lookup(boolean hit) {
                lookups.add(hit);
            }

            @Override
            public void firstPageLookup(boolean hit) {
                firstPageLookups.add(hit);
            }
        });
    }

    private static List<Long> firstPins(FirstPageView view) {
        return pins(view.page().orElseThrow());
    }

    /**
     * The store, each call of {@code method} answering only once {@code written} is counted down, after it read (counting
     * {@code reading} down): a write of this process lands between the read and the keeping of what it read.
     */
    private MaterializedFeedStore pausingAfter(String method, CountDownLatch reading, CountDownLatch written) {
        return (MaterializedFeedStore) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {MaterializedFeedStore.class},
                (proxy, m, args) -> {
                    try {
                        Object answer = m.invoke(store, args);
                        if (m.getName().equals(method)) {
                            reading.countDown();
                            assertThat(written.await(10, TimeUnit.SECONDS)).isTrue();
                        }
                        return answer;
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static Chunk chunk(long user, long chunkId, long... pins) {
        return new Chunk(user, chunkId, LongStream.of(pins).mapToObj(p -> new FeedItem(p, Source.FOLLOWED_USER, p, 7, 8)).toList());
    }

    private static List<Long> pins(FeedPage page) {
        return page.items().stream().map(p -> p.item().pinId()).toList();
    }

    private static FeedPosition at(int index) {
        return new FeedPosition(100, index);
    }

    @Test
    void aReaderPagingForwardReadsTheStoreOncePerReadAhead() {
        store.materialize(chunk(USER, 100, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10));
        ReadAheadFeedStore feed = readAhead(store, 3, 100);
        assertThat(pins(feed.read(USER, null, 2))).as("a first page is the store's").containsExactly(1L, 2L);
        assertThat(lookups).isEmpty();

        List<List<Long>> pages = new ArrayList<>();
        for (int last = 1; last < 9; last += 2) {
            FeedPage page = feed.readUnlessPending(USER, at(last), 2).orElseThrow();
            assertThat(page).isEqualTo(store.read(USER, at(last), 2));
            pages.add(pins(page));
        }
        assertThat(pages).containsExactly(List.of(3L, 4L), List.of(5L, 6L), List.of(7L, 8L), List.of(9L, 10L));
        assertThat(lookups).as("pages 2-4 in one read, page 5 in the next").containsExactly(false, true, true, false);
    }

    @Test
    void aRepeatedPageAndAnyPageInsideWhatWasReadComeFromMemory() {
        store.materialize(chunk(USER, 100, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10));
        ReadAheadFeedStore feed = readAhead(store, 4, 100);
        feed.read(USER, at(1), 3);
        assertThat(pins(feed.read(USER, at(1), 3))).containsExactly(3L, 4L, 5L);
        assertThat(pins(feed.read(USER, at(4), 2))).as("a page inside, another limit").containsExactly(6L, 7L);
        assertThat(pins(feed.read(USER, at(0), 3))).as("a position before what was read").containsExactly(2L, 3L, 4L);
        assertThat(lookups).containsExactly(false, true, true, false);
    }

    @Test
    void theFeedsLastPageIsKeptWithNothingAfterIt() {
        store.materialize(chunk(USER, 100, 1, 2, 3, 4, 5));
        ReadAheadFeedStore feed = readAhead(store, 4, 100);
        FeedPage second = feed.read(USER, at(1), 2);
        assertThat(pins(second)).containsExactly(3L, 4L);
        assertThat(second.more()).isTrue();
        FeedPage last = feed.read(USER, at(3), 2);
        assertThat(pins(last)).containsExactly(5L);
        assertThat(last.more()).isFalse();
        assertThat(feed.read(USER, at(4), 2)).isEqualTo(new FeedPage(List.of(), false));
        FeedPage exact = feed.read(USER, at(2), 2);
        assertThat(pins(exact)).containsExactly(4L, 5L);
        assertThat(exact.more()).as("as many items as asked, the feed's last").isFalse();
        assertThat(lookups).containsExactly(false, true, true, true);
    }

    @Test
    void aPageReachingPastWhatWasReadWhileTheFeedGoesOnIsReadFromTheStore() {
        store.materialize(chunk(USER, 100, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10));
        ReadAheadFeedStore feed = readAhead(store, 2, 100);
        assertThat(pins(feed.read(USER, at(1), 2))).containsExactly(3L, 4L); // read 3-6
        FeedPage exact = feed.read(USER, at(3), 2);
        assertThat(pins(exact)).containsExactly(5L, 6L);
        assertThat(exact.more()).as("the store had more after what was read").isTrue();
        assertThat(pins(feed.read(USER, at(4), 2))).containsExactly(6L, 7L);
        assertThat(lookups).containsExactly(false, true, false);
    }

    @Test
    void anotherProcesssRemovalShowsOnceTheTimeToLiveIsOver() {
        store.materialize(chunk(USER, 100, 1, 2, 3, 4, 5, 6));
        ReadAheadFeedStore feed = readAhead(store, 4, 100);
        feed.read(USER, at(1), 2);
        store.removePins(USER, List.of(3L)); // not through this process
        assertThat(pins(feed.read(USER, at(1), 2))).as("kept").containsExactly(3L, 4L);
        clock.advance(Duration.ofMillis(2_499));
        assertThat(pins(feed.read(USER, at(1), 2))).as("kept at least half the time to live").containsExactly(3L, 4L);
        clock.advance(Duration.ofMillis(2_501));
        assertThat(pins(feed.read(USER, at(1), 2))).as("kept at most the time to live").containsExactly(4L, 5L);
        assertThat(lookups).containsExactly(false, true, true, false);
    }

    @Test
    void readersWhoPagedTogetherDoNotAllReadAgainTogether() {
        for (long u = 1; u <= 200; u++) store.materialize(chunk(u, 100, 1, 2, 3, 4, 5, 6));
        long start = clock.millis();
        int[] keptAfterQuarters = new int[5];
        for (int quarters = 0; quarters < 5; quarters++) {
            clock.set(start);
            ReadAheadFeedStore feed = readAhead(store, 4, 1_000);
            for (long u = 1; u <= 200; u++) feed.read(u, at(1), 2);
            clock.advance(Duration.ofMillis(1_250L * quarters));
            lookups.clear();
            for (long u = 1; u <= 200; u++) feed.read(u, at(1), 2);
            keptAfterQuarters[quarters] = (int) lookups.stream().filter(hit -> hit).count();
        }
        assertThat(keptAfterQuarters[0]).isEqualTo(200);
        assertThat(keptAfterQuarters[1]).as("a quarter of the time to live").isEqualTo(200);
        assertThat(keptAfterQuarters[2]).as("half: a few expired").isBetween(190, 200);
        assertThat(keptAfterQuarters[3]).as("three quarters: about half").isBetween(60, 140);
        assertThat(keptAfterQuarters[4]).as("the time to live: none").isZero();
    }

    @Test
    void thisProcesssOwnWritesToAUsersFeedDropWhatWasKeptOfHimOnly() {
        long other = USER + 1;
        store.materialize(chunk(USER, 100, 1, 2, 3, 4, 5, 6));
        store.materialize(chunk(other, 100, 1, 2, 3, 4, 5, 6));
        ReadAheadFeedStore feed = readAhead(store, 4, 100);
        List<Runnable> writes = List.of(
                () -> feed.removePins(USER, List.of(4L)),
                () -> feed.trim(USER, 5),
                () -> feed.materialize(chunk(USER, 300, 11)),
                () -> feed.journal(chunk(USER, 400, 12)),
                () -> feed.reset(USER));
        for (Runnable write : writes) {
            feed.read(USER, at(1), 2);
            feed.read(other, at(1), 2);
            lookups.clear();
            write.run();
            assertThat(feed.read(USER, at(1), 2)).isEqualTo(store.read(USER, at(1), 2));
            assertThat(pins(feed.read(other, at(1), 2))).containsExactly(3L, 4L);
            assertThat(lookups).containsExactly(false, true);
        }
    }

    @Test
    void aReadAheadUnderWayWhileThisProcessWritesTheFeedIsNotKept() throws Exception {
        store.materialize(chunk(USER, 100, 1, 2, 3, 4, 5, 6));
        CountDownLatch reading = new CountDownLatch(1);
        CountDownLatch written = new CountDownLatch(1);
        MaterializedFeedStore slow = pausingAfter("read", reading, written);
        ReadAheadFeedStore feed = readAhead(slow, 4, 100);
        CompletableFuture<FeedPage> stale = CompletableFuture.supplyAsync(() -> feed.read(USER, at(1), 2));
        assertThat(reading.await(10, TimeUnit.SECONDS)).isTrue();
        feed.removePins(USER, List.of(3L));
        written.countDown();
        assertThat(pins(stale.get(10, TimeUnit.SECONDS))).as("read before the write").containsExactly(3L, 4L);
        CompletableFuture<FeedPage> next = CompletableFuture.supplyAsync(() -> feed.read(USER, at(1), 2));
        written.countDown();
        assertThat(pins(next.get(10, TimeUnit.SECONDS))).containsExactly(4L, 5L);
        assertThat(lookups).containsExactly(false, false);
    }

    @Test
    void atMostMaxUsersAreKeptAndExpiredOnesMakeRoom() {
        for (long u = 1; u <= 3; u++) store.materialize(chunk(u, 100, 1, 2, 3, 4, 5, 6));
        ReadAheadFeedStore feed = readAhead(store, 4, 2);
        for (long u = 1; u <= 3; u++) feed.read(u, at(1), 2);
        lookups.clear();
        for (long u = 1; u <= 3; u++) feed.read(u, at(1), 2);
        assertThat(lookups).as("the third did not fit").containsExactly(true, true, false);
        clock.advance(Duration.ofSeconds(5));
        lookups.clear();
        feed.read(3, at(1), 2);
        feed.read(3, at(1), 2);
        assertThat(lookups).as("expired users made room").containsExactly(false, true);
    }

    @Test
    void aPageAfterAPositionItDidNotReadIsTheStores() {
        store.materialize(chunk(USER, 100, 1, 2, 3, 4, 5, 6));
        ReadAheadFeedStore feed = readAhead(store, 4, 100);
        feed.read(USER, at(1), 2);
        FeedPosition gone = new FeedPosition(50, 0);
        assertThat(feed.read(USER, gone, 2)).isEqualTo(store.read(USER, gone, 2));
        assertThat(lookups).containsExactly(false, false);
    }

    @Test
    void aFirstPageViewIsKeptForItsTimeToLiveAndAnotherProcesssWritesShowAfterIt() {
        store.materialize(chunk(USER, 100, 1, 2, 3, 4));
        store.saveState(USER, new GeneratorState(25, 7, 4));
        ReadAheadFeedStore feed = keepingFirstPages(store, Duration.ofSeconds(2));
        FirstPageView first = feed.firstPageView(USER, 2);
        assertThat(first).isEqualTo(store.firstPageView(USER, 2));
        store.materialize(chunk(USER, 200, 9)); // not through this process
        store.saveState(USER, new GeneratorState(25, 8, 5));
        clock.advance(Duration.ofMillis(1_999));
        assertThat(feed.firstPageView(USER, 2)).as("kept").isSameAs(first);
        clock.advance(Duration.ofMillis(1));
        FirstPageView later = feed.firstPageView(USER, 2);
        assertThat(firstPins(later)).as("the time to live is over").containsExactly(9L, 1L);
        assertThat(later.state()).contains(new GeneratorState(25, 8, 5));
        assertThat(firstPageLookups).containsExactly(false, true, false);
        assertThat(lookups).as("pages after a position are counted apart").isEmpty();
    }

    @Test
    void thisProcesssOwnWritesToAUsersFeedOrStateDropHisFirstPageViewOnly() {
        long other = USER + 1;
        store.materialize(chunk(USER, 100, 1, 2, 3, 4, 5, 6));
        store.materialize(chunk(other, 100, 1, 2, 3, 4, 5, 6));
        ReadAheadFeedStore feed = keepingFirstPages(store, Duration.ofSeconds(5));
        List<Runnable> writes = List.of(
                () -> feed.removePins(USER, List.of(1L)),
                () -> feed.trim(USER, 4),
                () -> feed.materialize(chunk(USER, 300, 11)),
                () -> feed.saveState(USER, new GeneratorState(50, 9, 3)),
                () -> feed.reset(USER));
        for (Runnable write : writes) {
            feed.firstPageView(USER, 2);
            feed.firstPageView(other, 2);
            firstPageLookups.clear();
            write.run();
            assertThat(feed.firstPageView(USER, 2)).isEqualTo(store.firstPageView(USER, 2));
            assertThat(firstPins(feed.firstPageView(other, 2))).containsExactly(1L, 2L);
            assertThat(firstPageLookups).containsExactly(false, true);
        }
        feed.firstPageView(USER, 2);
        feed.journal(chunk(USER, 400, 12));
        assertThat(feed.firstPageView(USER, 2).pending()).as("a chunk journaled here").hasSize(1);
    }

    @Test
    void aViewWithAPendingChunkIsNeverKeptAndAnotherLimitIsReadFromTheStore() {
        store.materialize(chunk(USER, 100, 1, 2, 3, 4));
        store.journal(chunk(USER, 200, 9));
        ReadAheadFeedStore feed = keepingFirstPages(store, Duration.ofSeconds(5));
        feed.firstPageView(USER, 2);
        assertThat(feed.firstPageView(USER, 2).pending()).hasSize(1);
        store.materialize(chunk(USER, 200, 9)); // the pending chunk completed (the journal row goes with it)
        feed.firstPageView(USER, 2);
        assertThat(firstPins(feed.firstPageView(USER, 2))).containsExactly(9L, 1L);
        assertThat(firstPins(feed.firstPageView(USER, 3))).as("another limit").containsExactly(9L, 1L, 2L);
        assertThat(firstPageLookups).containsExactly(false, false, false, true, false);
    }

    @Test
    void aFirstPageViewReadWhileThisProcessWritesTheFeedIsNotKept() throws Exception {
        store.materialize(chunk(USER, 100, 1, 2, 3, 4));
        CountDownLatch reading = new CountDownLatch(1);
        CountDownLatch written = new CountDownLatch(1);
        MaterializedFeedStore slow = pausingAfter("firstPageView", reading, written);
        ReadAheadFeedStore feed = keepingFirstPages(slow, Duration.ofSeconds(5));
        CompletableFuture<FirstPageView> stale = CompletableFuture.supplyAsync(() -> feed.firstPageView(USER, 2));
        assertThat(reading.await(10, TimeUnit.SECONDS)).isTrue();
        feed.removePins(USER, List.of(1L));
        written.countDown();
        assertThat(firstPins(stale.get(10, TimeUnit.SECONDS))).as("read before the write").containsExactly(1L, 2L);
        assertThat(firstPins(feed.firstPageView(USER, 2))).containsExactly(2L, 3L);
        assertThat(firstPageLookups).containsExactly(false, false);
    }

    @Test
    void withoutATimeToLiveForFirstPagesEveryViewIsTheStores() {
        store.materialize(chunk(USER, 100, 1, 2, 3, 4));
        ReadAheadFeedStore feed = keepingFirstPages(store, Duration.ZERO);
        feed.firstPageView(USER, 2);
        store.removePins(USER, List.of(1L));
        assertThat(firstPins(feed.firstPageView(USER, 2))).containsExactly(2L, 3L);
        assertThat(firstPageLookups).isEmpty();
        MaterializedFeedStore firstPagesOnly = ReadAheadFeedStore.over(store, 4, Duration.ZERO, Duration.ofSeconds(5), 10, clock,
                ReadAheadFeedStore.Listener.NONE);
        assertThat(firstPagesOnly).isInstanceOf(ReadAheadFeedStore.class);
        firstPagesOnly.read(USER, at(1), 1);
        store.removePins(USER, List.of(3L));
        assertThat(pins(firstPagesOnly.read(USER, at(1), 1))).as("no read-ahead: the store's").containsExactly(4L);
    }

    @Test
    void settingsOutOfRangeAreRefusedAndAZeroTimeToLiveReadsNothingAhead() {
        assertThatThrownBy(() -> readAhead(store, 1, 10)).hasMessageContaining("pages");
        assertThatThrownBy(() -> readAhead(store, 4, 0)).hasMessageContaining("maxUsers");
        assertThatThrownBy(() -> new ReadAheadFeedStore(store, 4, Duration.ofMillis(-1), 10, clock, ReadAheadFeedStore.Listener.NONE))
                .hasMessageContaining("ttl");
        assertThatThrownBy(() -> new ReadAheadFeedStore(store, 4, Duration.ofSeconds(1), Duration.ofMillis(-1), 10, clock,
                ReadAheadFeedStore.Listener.NONE)).hasMessageContaining("firstPageTtl");
        assertThat(ReadAheadFeedStore.over(store, 4, Duration.ZERO, Duration.ZERO, 10, clock, ReadAheadFeedStore.Listener.NONE)).isSameAs(store);
        assertThat(ReadAheadFeedStore.over(store, 4, Duration.ZERO, 10, clock, ReadAheadFeedStore.Listener.NONE)).isSameAs(store);
    }
}
