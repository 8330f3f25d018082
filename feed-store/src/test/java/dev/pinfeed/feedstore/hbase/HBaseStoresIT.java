package dev.pinfeed.feedstore.hbase;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.feedstore.FirstPageView;
import dev.pinfeed.feedstore.GeneratorState;
import dev.pinfeed.feedstore.MaterializedFeedStore;
import dev.pinfeed.feedstore.MaterializedFeedStoreContract;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolRows;
import dev.pinfeed.feedstore.PoolRowsContract;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.PoolStoreContract;
import dev.pinfeed.feedstore.ReadAheadFeedStore;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The store contracts against the primary HBase cluster of the shared stack (fresh user ids per test). */
@ExtendWith(StackExtension.class)
class HBaseStoresIT {

    private static TestStack stack;
    private static Connection connection;

    @BeforeAll
    static void connect(TestStack s) {
        stack = s;
        connection = HBaseClusters.connect(s.config(), HBaseClusters.PRIMARY);
    }

    @AfterAll
    static void close() throws Exception {
        connection.close();
    }

    /**
     * An interrupted re-score leaves the pin's old row behind (an orphan: the index points elsewhere).
     * A trim that meets it deletes that row only, never the index row the pin's live entry needs.
     */
    @Test
    void trimsDeleteOrphanRowsWithoutTouchingTheLiveEntry() throws Exception {
        long u = stack.freshId();
        try (HBasePoolStore store = new HBasePoolStore(connection, HBaseClusters.PRIMARY);
             Table table = connection.getTable(HBaseClusters.POOLS)) {
            PoolEntry live = new PoolEntry(u, Source.FOLLOWED_USER, 9.0, 1, 11, 21, 1_767_225_600_000L);
            store.upsert(List.of(live, new PoolEntry(u, Source.FOLLOWED_USER, 5.0, 2, 12, 22, 1_767_225_600_000L)), 5, 1);
            PoolEntry stale = new PoolEntry(u, Source.FOLLOWED_USER, 0.5, 1, 11, 21, 1_767_225_600_000L);
            table.put(new Put(PoolKeys.entryRow(stale)).addColumn(PoolKeys.FAMILY, PoolKeys.ENTRY, PoolKeys.entryValue(stale)));

            assertThat(store.storedRows(u)).as("what is stored, orphan included").hasSize(3).contains(stale);
            assertThat(store.trim(u, 1)).as("pin 2 goes; the orphan is not an entry").isEqualTo(1);
            assertThat(store.all(u)).containsExactly(live);
            assertThat(table.exists(new org.apache.hadoop.hbase.client.Get(PoolKeys.entryRow(stale)))).isFalse();
            assertThat(store.storedRows(u)).containsExactly(live);
        }
    }

    /**
     * The one read of all pools skips an orphan as best does: a pool whose first rows hold one is settled only when the read
     * reached its end; otherwise it is left to best, which reads past it. Either way the orphan is deleted.
     */
    @Test
    void bestOfEachSkipsOrphansOrLeavesThePoolToBest() throws Exception {
        long u = stack.freshId();
        try (HBasePoolStore store = new HBasePoolStore(connection, HBaseClusters.PRIMARY);
             Table table = connection.getTable(HBaseClusters.POOLS)) {
            PoolEntry first = new PoolEntry(u, Source.FOLLOWED_USER, 5.0, 2, 12, 22, 1_767_225_600_000L);
            PoolEntry second = new PoolEntry(u, Source.FOLLOWED_USER, 1.0, 3, 13, 23, 1_767_225_600_000L);
            PoolEntry board = new PoolEntry(u, Source.FOLLOWED_BOARD, 2.0, 4, 14, 24, 1_767_225_600_000L);
            store.upsert(List.of(first, second, board), 5, 5);
            PoolEntry orphan = new PoolEntry(u, Source.FOLLOWED_USER, 9.0, 2, 12, 22, 1_767_225_600_000L); // pin 2's old row
            table.put(new Put(PoolKeys.entryRow(orphan)).addColumn(PoolKeys.FAMILY, PoolKeys.ENTRY, PoolKeys.entryValue(orphan)));
            java.util.Set<Source> two = java.util.EnumSet.of(Source.FOLLOWED_USER, Source.FOLLOWED_BOARD);

            // n = 2: the pool's first two rows are the orphan and pin 2; it has a third, so best must read on.
            assertThat(store.bestOfEach(u, two, 2, 100)).containsOnlyKeys(Source.FOLLOWED_BOARD).containsEntry(Source.FOLLOWED_BOARD, List.of(board));
            assertThat(store.storedRows(u)).as("the orphan was deleted").doesNotContain(orphan);
            assertThat(store.best(u, Source.FOLLOWED_USER, 2)).containsExactly(first, second);

            table.put(new Put(PoolKeys.entryRow(orphan)).addColumn(PoolKeys.FAMILY, PoolKeys.ENTRY, PoolKeys.entryValue(orphan)));
            // n = 3: the whole pool was read and verified: settled without the orphan.
            assertThat(store.bestOfEach(u, two, 3, 100)).containsEntry(Source.FOLLOWED_USER, List.of(first, second))
                    .containsEntry(Source.FOLLOWED_BOARD, List.of(board));
        }
    }

    /**
     * An entry written as unseen (its fan-out chunk marked for the first time) skips the index read, so
     * an older entry of the same pin, which only a racing backfill could have written, stays behind as
     * an orphan: readers skip and delete it. A pin given twice in one call is checked all the same.
     */
    @Test
    void anUnseenEntryOverAnOldOneLeavesAnOrphanThatReadersSkip() {
        long u = stack.freshId();
        try (HBasePoolStore store = new HBasePoolStore(connection, HBaseClusters.PRIMARY)) {
            PoolEntry old = new PoolEntry(u, Source.FOLLOWED_USER, 1.0, 1, 11, 21, 1_767_225_600_000L);
            PoolEntry unseen = new PoolEntry(u, Source.FOLLOWED_USER, 4.0, 1, 11, 21, 1_767_225_600_000L);
            store.upsert(List.of(old), 5, 5);
            store.upsert(List.of(unseen), e -> true, 5, 5);
            assertThat(store.storedRows(u)).as("no index read: the old row was not deleted").containsExactlyInAnyOrder(unseen, old);
            assertThat(store.all(u)).containsExactly(unseen);
            assertThat(store.storedRows(u)).as("the reader deleted the orphan").containsExactly(unseen);

            PoolEntry twiceFirst = new PoolEntry(u, Source.FOLLOWED_BOARD, 2.0, 1, 11, 21, 1_767_225_600_000L);
            PoolEntry twiceLast = new PoolEntry(u, Source.FOLLOWED_BOARD, 3.0, 1, 11, 21, 1_767_225_600_000L);
            store.upsert(List.of(twiceFirst, twiceLast), e -> true, 5, 5);
            assertThat(store.storedRows(u)).containsExactly(twiceLast);
        }
    }

    /** Two writers marking the same deliveries at once: each delivery is new to exactly one of them. */
    @Test
    void concurrentMarksOfOneDeliveryHaveOneWinner() throws Exception {
        long pin = stack.freshId();
        List<PoolStore.Delivery> deliveries = IntStream.range(0, 300).mapToObj(i -> new PoolStore.Delivery(pin, i)).toList();
        List<PoolStore.Delivery> reversed = new ArrayList<>(deliveries);
        Collections.reverse(reversed);
        try (HBasePoolStore a = new HBasePoolStore(connection, HBaseClusters.PRIMARY);
             HBasePoolStore b = new HBasePoolStore(connection, HBaseClusters.PRIMARY)) {
            CountDownLatch go = new CountDownLatch(1);
            ExecutorService two = Executors.newFixedThreadPool(2);
            try {
                var seenByA = two.submit(() -> { go.await(); return a.markDelivered(deliveries); });
                var seenByB = two.submit(() -> { go.await(); return b.markDelivered(reversed); });
                go.countDown();
                Set<PoolStore.Delivery> beforeA = seenByA.get();
                Set<PoolStore.Delivery> beforeB = seenByB.get();
                for (PoolStore.Delivery d : deliveries) {
                    assertThat(beforeA.contains(d) ^ beforeB.contains(d)).as("%s marked before for exactly one writer", d).isTrue();
                }
            } finally {
                two.shutdownNow();
            }
        }
    }

    @Test
    void theReadinessProbeAnswersWhileTheClusterDoes() {
        HBaseClusters.ping(connection, HBaseClusters.PRIMARY); // throws StoreUnavailableException when it does not
    }

    @Nested
    class Pools extends PoolStoreContract {
        private final PoolStore store = new HBasePoolStore(connection, HBaseClusters.PRIMARY);

        @Override
        protected PoolStore store() {
            return store;
        }

        @Override
        protected long freshUser() {
            return stack.freshId();
        }

        /**
         * A big fan-out's batch: more entries than HBasePoolStore sends at once (it writes them in rounds; one
         * 100 000-entry call ran the region server out of heap). On the primary alone: through the speculative
         * stores a 4 000-row read may be answered by the standby before replication caught up.
         */
        @Test
        void aVeryLargeUpsertLandsWholeBoundedAndWithOneEntryPerPin() {
            long u = freshUser();
            long v = freshUser();
            List<PoolEntry> batch = new ArrayList<>();
            for (int i = 1; i <= 6_000; i++) batch.add(entry(u, Source.FOLLOWED_USER, i, i));
            for (int i = 1; i <= 6_000; i++) batch.add(entry(v, Source.FOLLOWED_BOARD, i, i));
            batch.add(entry(u, Source.FOLLOWED_USER, 0.5, 1)); // pin 1 again, re-scored later in the same batch
            int removed = store().upsert(batch, 5_000, 4_000);
            assertThat(removed).as("each pool cut back to its best 4 000").isEqualTo(2 * 6_000 - 2 * 4_000);
            assertThat(store().best(u, Source.FOLLOWED_USER, 1)).extracting(PoolEntry::pinId).containsExactly(6_000L);
            assertThat(store().best(u, Source.FOLLOWED_USER, 10_000)).hasSize(4_000).extracting(PoolEntry::pinId).doesNotHaveDuplicates()
                    .doesNotContain(1L);
            assertThat(store().best(v, Source.FOLLOWED_BOARD, 10_000)).hasSize(4_000);
        }

        /** One removal of more rows than the store hands the mutator per call (a bulk clean-up): every entry goes. */
        @Test
        void aRemovalOfTensOfThousandsOfRowsRemovesThemAll() {
            List<Long> users = new ArrayList<>();
            List<PoolEntry> batch = new ArrayList<>();
            for (int i = 0; i < 3_000; i++) {
                long u = freshUser();
                users.add(u);
                for (int p = 1; p <= 3; p++) batch.add(entry(u, Source.FOLLOWED_USER, p, p));
            }
            store().upsert(batch, 100, 50);
            java.util.Map<Long, List<Long>> all = new java.util.HashMap<>();
            for (long u : users) all.put(u, List.of(1L, 2L, 3L));
            store().remove(all); // 18 000 deletes: entry and index row of each
            for (long u : users.subList(0, 200)) assertThat(((HBasePoolStore) store).storedRows(u)).as("user %d", u).isEmpty();
            assertThat(((HBasePoolStore) store).storedRows(users.get(users.size() - 1))).isEmpty();
        }

        /**
         * Sizes are estimated per store instance (in memory, no counter write per entry): a writer that
         * did not write a pool before (another process, or this one restarted) counts it from 0, so the
         * pool can pass the maximum by up to one maximum before that writer's first check cuts it.
         */
        @Test
        void aSecondWriterCountsAPoolFromZeroSoItMayHoldUpToTwiceTheMaximumBeforeItsFirstCheck() {
            long u = freshUser();
            for (int i = 1; i <= 5; i++) store().upsert(List.of(entry(u, Source.FOLLOWED_USER, i, i)), 5, 3);
            try (HBasePoolStore restarted = new HBasePoolStore(connection, HBaseClusters.PRIMARY)) {
                for (int i = 6; i <= 10; i++) {
                    assertThat(restarted.upsert(List.of(entry(u, Source.FOLLOWED_USER, i, i)), 5, 3)).isZero();
                }
                assertThat(restarted.best(u, Source.FOLLOWED_USER, 100)).as("within twice the maximum, not yet checked").hasSize(10);
                assertThat(restarted.upsert(List.of(entry(u, Source.FOLLOWED_USER, 11, 11)), 5, 3)).isEqualTo(8);
                assertThat(restarted.best(u, Source.FOLLOWED_USER, 100)).extracting(PoolEntry::pinId).containsExactly(11L, 10L, 9L);
            }
        }
    }

    @Nested
    class Rows extends PoolRowsContract {
        private final HBasePoolStore store = new HBasePoolStore(connection, HBaseClusters.PRIMARY);

        @Override
        protected PoolStore pools() {
            return store;
        }

        @Override
        protected PoolRows rows() {
            return store;
        }

        @Override
        protected long freshUser() {
            return stack.freshId();
        }
    }

    @Nested
    class Materialized extends MaterializedFeedStoreContract {
        private final MaterializedFeedStore store = new HBaseMaterializedFeedStore(connection, HBaseClusters.PRIMARY);

        @Override
        protected MaterializedFeedStore store() {
            return store;
        }

        @Override
        protected long freshUser() {
            return stack.freshId();
        }

        /** A state saved where earlier versions kept it (after the items) is still read, and the next save moves it first. */
        @Test
        void aStateInTheOldLayoutIsReadUntilTheNextSaveMovesIt() throws Exception {
            long u = freshUser();
            store.materialize(chunk(u, 100, 1, 2));
            try (Table t = connection.getTable(HBaseClusters.MATERIALIZED_FEED)) {
                t.put(new Put(MaterializedKeys.oldStateRow(u))
                        .addColumn(MaterializedKeys.FAMILY, MaterializedKeys.CHUNK_SIZE, java.nio.ByteBuffer.allocate(4).putInt(60).array())
                        .addColumn(MaterializedKeys.FAMILY, MaterializedKeys.LAST_READ, java.nio.ByteBuffer.allocate(8).putLong(1_767_225_600_000L).array()));
            }
            GeneratorState old = new GeneratorState(60, 1_767_225_600_000L);
            assertThat(store.state(u)).contains(old);
            assertThat(store.pendingAndState(u).state()).contains(old);
            FirstPageView view = store.firstPageView(u, 10);
            assertThat(view.state()).contains(old);
            assertThat(view.stateToResave()).isTrue();
            assertThat(view.page()).hasValueSatisfying(p -> assertThat(p.items()).hasSize(2));

            GeneratorState saved = new GeneratorState(70, 1_767_225_700_000L, 2);
            store.saveState(u, saved);
            assertThat(store.firstPageView(u, 10).state()).contains(saved);
            assertThat(store.firstPageView(u, 10).stateToResave()).isFalse();
            assertThat(store.state(u)).contains(saved);
            store.reset(u);
            assertThat(store.state(u)).as("reset removes the old row too").isEmpty();
        }
    }

    /** HBase read through a read-ahead that keeps first page views too: within one process its answers are the store's. */
    @Nested
    class ReadAhead extends Materialized {
        private final MaterializedFeedStore readAhead = new ReadAheadFeedStore(super.store(), 2, Duration.ofMinutes(1), Duration.ofMinutes(1), 100, Clock.systemUTC(),
                ReadAheadFeedStore.Listener.NONE);

        @Override
        protected MaterializedFeedStore store() {
            return readAhead;
        }
    }
}
