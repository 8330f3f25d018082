package dev.pinfeed.feedstore.hbase;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.feedstore.MaterializedFeedStore;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.MaterializedFeedStoreContract;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.PoolStoreContract;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import java.util.List;
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
    }
}
