package dev.pinfeed.feedstore.hbase;

import dev.pinfeed.feedstore.MaterializedFeedStore;
import dev.pinfeed.feedstore.MaterializedFeedStoreContract;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.PoolStoreContract;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import org.apache.hadoop.hbase.client.Connection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
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
