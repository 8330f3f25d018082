package dev.pinfeed.idallocator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** What every {@link SequenceStore} promises; run against the in-memory fake and against MariaDB. */
public abstract class SequenceStoreContract {

    /** A (shard, type) pair whose counter has never been leased from (or was reset for this test). */
    public record Key(int shard, int typeId) {
    }

    protected abstract SequenceStore store();

    protected abstract Key freshKey();

    /** Test fixture: the next lease of {@code key} starts at {@code nextLocal}. */
    protected abstract void setNext(Key key, long nextLocal);

    @Test
    void theFirstLeaseStartsAtOne() {
        Key key = freshKey();

        LocalIdBlock block = store().lease(key.shard(), key.typeId(), 100);

        assertThat(block).isEqualTo(new LocalIdBlock(key.shard(), key.typeId(), 1, 101));
    }

    @Test
    void leasesFollowEachOtherWithoutOverlap() {
        Key key = freshKey();

        LocalIdBlock first = store().lease(key.shard(), key.typeId(), 10);
        LocalIdBlock second = store().lease(key.shard(), key.typeId(), 3);

        assertThat(first.size()).isEqualTo(10);
        assertThat(second.size()).isEqualTo(3);
        assertThat(second.start()).isGreaterThanOrEqualTo(first.end());
    }

    @Test
    void countersOfDifferentShardsAndTypesAreIndependent() {
        Key a = freshKey();
        Key b = freshKey();
        store().lease(a.shard(), a.typeId(), 50);

        assertThat(store().lease(b.shard(), b.typeId(), 5).start()).isEqualTo(1);
    }

    @Test
    void concurrentLeasesNeverOverlap() throws Exception {
        Key key = freshKey();
        int threads = 6;
        int leasesPerThread = 40;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<LocalIdBlock> blocks = new ArrayList<>();
        try {
            List<Callable<List<LocalIdBlock>>> tasks = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int size = 1 + t; // different sizes interleave differently
                tasks.add(() -> {
                    List<LocalIdBlock> mine = new ArrayList<>();
                    for (int i = 0; i < leasesPerThread; i++) mine.add(store().lease(key.shard(), key.typeId(), size));
                    return mine;
                });
            }
            for (Future<List<LocalIdBlock>> f : pool.invokeAll(tasks)) blocks.addAll(f.get());
        } finally {
            pool.shutdownNow();
        }

        blocks.sort(Comparator.comparingLong(LocalIdBlock::start));
        assertThat(blocks).hasSize(threads * leasesPerThread);
        assertThat(blocks.get(0).start()).isEqualTo(1);
        for (int i = 1; i < blocks.size(); i++) {
            assertThat(blocks.get(i).start()).as("block %d starts after block %d ends", i, i - 1)
                    .isGreaterThanOrEqualTo(blocks.get(i - 1).end());
        }
    }

    @Test
    void theLastLocalIdCanBeLeasedButNothingBeyondIt() {
        Key key = freshKey();
        setNext(key, ShardedId.MAX_LOCAL_ID - 5);

        LocalIdBlock last = store().lease(key.shard(), key.typeId(), 6);

        assertThat(last.end() - 1).isEqualTo(ShardedId.MAX_LOCAL_ID);
        assertThatThrownBy(() -> store().lease(key.shard(), key.typeId(), 1))
                .isInstanceOf(IdAllocationException.class).hasMessageContaining("exhausted");
    }

    @Test
    void rejectsBadArguments() {
        Key key = freshKey();
        assertThatThrownBy(() -> store().lease(key.shard(), key.typeId(), 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().lease(key.shard(), key.typeId(), SequenceStore.MAX_BLOCK_SIZE + 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().lease(-1, key.typeId(), 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().lease(65536, key.typeId(), 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().lease(key.shard(), 1024, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().lease(key.shard(), -1, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
