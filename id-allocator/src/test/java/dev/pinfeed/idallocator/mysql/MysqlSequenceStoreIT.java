package dev.pinfeed.idallocator.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.idallocator.LocalIdBlock;
import dev.pinfeed.idallocator.SequenceStore;
import dev.pinfeed.idallocator.SequenceStoreContract;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The {@link SequenceStoreContract} against the stack's MariaDB shard masters. */
@ExtendWith(StackExtension.class)
class MysqlSequenceStoreIT extends SequenceStoreContract {

    /** Type ids no registered type uses, so these tests never touch real objects' counters. */
    private static final int FIRST_TEST_TYPE = 1000;
    private static final int TEST_TYPES = 24;
    /** The last test key's index (shard-major over the test types); -1 until the first. */
    private static final java.util.concurrent.atomic.AtomicLong NEXT_KEY = new java.util.concurrent.atomic.AtomicLong(-1);

    private final TestStack stack;
    private final MysqlSequenceStore store;
    private final MysqlFixtures fixtures;
    private final int shardCount;

    MysqlSequenceStoreIT(TestStack stack) {
        this.stack = stack;
        this.store = MysqlSequenceStore.from(stack.config());
        this.fixtures = new MysqlFixtures(stack.config());
        this.shardCount = MysqlShardMap.from(stack.config()).shardCount();
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    @Override
    protected SequenceStore store() {
        return store;
    }

    @Override
    protected Key freshKey() {
        // Consecutive keys of one sequence, not keys derived from the clock: freshId's low bits count calls within a
        // millisecond, so two calls 24 ms apart once mapped to the same (shard, type) and a test saw the other's lease.
        long n = NEXT_KEY.updateAndGet(last -> last < 0 ? Math.floorMod(stack.freshId(), (long) shardCount * TEST_TYPES) : last + 1);
        Key key = new Key((int) (n % shardCount), FIRST_TEST_TYPE + (int) ((n / shardCount) % TEST_TYPES));
        fixtures.deleteCounter(key.shard(), key.typeId());
        return key;
    }

    @Override
    protected void setNext(Key key, long nextLocal) {
        fixtures.setCounter(key.shard(), key.typeId(), nextLocal);
    }

    @Test
    void shardsOnBothHostsLease() {
        Key onFirstHost = new Key(0, FIRST_TEST_TYPE);
        Key onLastHost = new Key(shardCount - 1, FIRST_TEST_TYPE);

        LocalIdBlock first = store.lease(onFirstHost.shard(), onFirstHost.typeId(), 3);
        LocalIdBlock last = store.lease(onLastHost.shard(), onLastHost.typeId(), 3);

        assertThat(first.size()).isEqualTo(3);
        assertThat(last.size()).isEqualTo(3);
        assertThat(store.lease(onLastHost.shard(), onLastHost.typeId(), 1).start()).isGreaterThanOrEqualTo(last.end());
    }
}
