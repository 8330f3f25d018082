package dev.pinfeed.idallocator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ShardedIdAllocatorTest {

    private final InMemorySequenceStore memory = new InMemorySequenceStore();

    @Test
    void newIdsDecodeToTheirShardAndTypeWithLocalIdsFromOne() {
        try (ShardedIdAllocator allocator = new ShardedIdAllocator(memory, 100)) {
            ShardedId first = ShardedId.decode(allocator.newId(ObjectType.BOARD, 3429));
            ShardedId second = ShardedId.decode(allocator.newId(ObjectType.BOARD, 3429));

            assertThat(first).isEqualTo(new ShardedId(3429, ObjectType.BOARD, 1));
            assertThat(second).isEqualTo(new ShardedId(3429, ObjectType.BOARD, 2));
        }
    }

    @Test
    void threadsAcrossShardsAndTypesNeverGetTheSameId() throws Exception {
        int threads = 4;
        int idsPerThread = 50_000;
        ObjectType[] types = {ObjectType.PIN, ObjectType.USER};
        int[] shards = {0, 12, 65535};
        try (ShardedIdAllocator allocator = new ShardedIdAllocator(memory, 7); // tiny blocks: constant switching
             ExecutorServiceCloser pool = new ExecutorServiceCloser(Executors.newFixedThreadPool(threads))) {
            List<Callable<long[]>> tasks = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                tasks.add(() -> {
                    long[] ids = new long[idsPerThread];
                    for (int i = 0; i < idsPerThread; i++) ids[i] = allocator.newId(types[i % 2], shards[i % 3]);
                    return ids;
                });
            }
            Set<Long> all = new HashSet<>();
            for (Future<long[]> f : pool.executor.invokeAll(tasks)) {
                long[] ids = f.get();
                for (int i = 0; i < ids.length; i++) {
                    ShardedId id = ShardedId.decode(ids[i]);
                    assertThat(id.type()).isEqualTo(types[i % 2]);
                    assertThat(id.shard()).isEqualTo(shards[i % 3]);
                    all.add(ids[i]);
                }
            }
            assertThat(all).hasSize(threads * idsPerThread);
        }
    }

    @Test
    void theNextBlockIsLeasedInTheBackgroundWhileTheCurrentOneIsStillServed() throws Exception {
        CountDownLatch secondLeaseStarted = new CountDownLatch(1);
        CountDownLatch releaseSecondLease = new CountDownLatch(1);
        AtomicInteger leases = new AtomicInteger();
        SequenceStore slowSecondLease = (shard, type, size) -> {
            if (leases.incrementAndGet() == 2) {
                secondLeaseStarted.countDown();
                await(releaseSecondLease);
            }
            return memory.lease(shard, type, size);
        };
        try (ShardedIdAllocator allocator = new ShardedIdAllocator(slowSecondLease, 10, 0.5)) {
            LocalIdSequence pins = allocator.sequence(ObjectType.PIN, 1);
            List<Long> firstBlock = new ArrayList<>();
            for (int i = 0; i < 10; i++) firstBlock.add(pins.nextLocalId()); // never blocks on the stuck lease

            assertThat(firstBlock).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
            assertThat(secondLeaseStarted.await(10, TimeUnit.SECONDS)).as("prefetch started after half the block").isTrue();

            releaseSecondLease.countDown();
            assertThat(pins.nextLocalId()).isEqualTo(11L);
            assertThat(leases).hasValue(2);
        }
    }

    @Test
    void leasingAheadLeasesEveryEmptySequenceAtOnceAndTheirIdsComeFromThoseLeases() {
        int shards = ShardedIdAllocator.BACKGROUND_LEASES;
        CountDownLatch allInFlight = new CountDownLatch(shards);
        AtomicInteger leases = new AtomicInteger();
        SequenceStore waitsForTheOthers = (shard, type, size) -> {
            leases.incrementAndGet();
            allInFlight.countDown();
            await(allInFlight); // returns only once every lease has started: they run together, or never
            return memory.lease(shard, type, size);
        };
        List<Integer> boardShards = new ArrayList<>();
        for (int i = 0; i < shards; i++) boardShards.add(100 + i);
        try (ShardedIdAllocator allocator = new ShardedIdAllocator(waitsForTheOthers, 50)) {
            allocator.leaseAhead(ObjectType.BOARD, boardShards);

            for (int shard : boardShards) assertThat(ShardedId.decode(allocator.newId(ObjectType.BOARD, shard)).localId()).isEqualTo(1L);
            assertThat(leases).as("one lease a sequence, none more when its ids were asked for").hasValue(shards);
            allocator.leaseAhead(ObjectType.BOARD, boardShards);
            assertThat(leases).as("sequences with ids left lease nothing ahead").hasValue(shards);
        }
    }

    @Test
    void aLeaseStillQueuedWhenTheAllocatorClosesFailsItsCallerInsteadOfHangingIt() {
        CountDownLatch never = new CountDownLatch(1);
        SequenceStore stuck = (shard, type, size) -> {
            await(never);
            return memory.lease(shard, type, size);
        };
        ShardedIdAllocator allocator = new ShardedIdAllocator(stuck, 50);
        List<Integer> shards = new ArrayList<>();
        for (int i = 0; i <= ShardedIdAllocator.BACKGROUND_LEASES; i++) shards.add(200 + i); // the last one waits in the queue
        allocator.leaseAhead(ObjectType.PIN, shards);
        allocator.close();

        LocalIdSequence queued = allocator.sequence(ObjectType.PIN, 200 + ShardedIdAllocator.BACKGROUND_LEASES);
        assertThatThrownBy(queued::nextLocalId).isInstanceOf(IdAllocationException.class).hasMessageContaining("closed");
    }

    @Test
    void aFailedLeaseReachesTheCallerAndTheNextCallRetries() {
        AtomicInteger leases = new AtomicInteger();
        SequenceStore failsOnce = (shard, type, size) -> {
            if (leases.incrementAndGet() == 2) throw new IllegalStateException("connection refused");
            return memory.lease(shard, type, size);
        };
        try (ShardedIdAllocator allocator = new ShardedIdAllocator(failsOnce, 4)) {
            LocalIdSequence users = allocator.sequence(ObjectType.USER, 7);
            for (int i = 0; i < 4; i++) users.nextLocalId();

            assertThatThrownBy(users::nextLocalId).isInstanceOf(IdAllocationException.class).hasMessageContaining("connection refused");
            assertThat(users.nextLocalId()).isGreaterThan(4L);
        }
    }

    @Test
    void stopsAtTheEndOfTheThirtySixBitSpace() {
        memory.setNext(2, ObjectType.PIN.id(), ShardedId.MAX_LOCAL_ID - 2);
        try (ShardedIdAllocator allocator = new ShardedIdAllocator(memory, 3)) {
            LocalIdSequence pins = allocator.sequence(ObjectType.PIN, 2);
            for (int i = 0; i < 3; i++) assertThat(pins.nextLocalId()).isLessThanOrEqualTo(ShardedId.MAX_LOCAL_ID);

            assertThatThrownBy(pins::nextLocalId).isInstanceOf(IdAllocationException.class).hasMessageContaining("exhausted");
        }
    }

    @Test
    void aRestartedAllocatorNeverReissuesIds() {
        Set<Long> before = new HashSet<>();
        try (ShardedIdAllocator first = new ShardedIdAllocator(memory, 50)) {
            for (int i = 0; i < 120; i++) before.add(first.newId(ObjectType.COMMENT, 9));
        }
        try (ShardedIdAllocator second = new ShardedIdAllocator(memory, 50)) {
            for (int i = 0; i < 120; i++) assertThat(before).doesNotContain(second.newId(ObjectType.COMMENT, 9));
        }
    }

    @Test
    void rejectsBadArguments() {
        try (ShardedIdAllocator allocator = new ShardedIdAllocator(memory, 10)) {
            assertThatThrownBy(() -> allocator.newId(ObjectType.PIN, 65536)).isInstanceOf(InvalidIdException.class);
            assertThatThrownBy(() -> allocator.newId(null, 1)).isInstanceOf(InvalidIdException.class);
        }
        assertThatThrownBy(() -> new ShardedIdAllocator(memory, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ShardedIdAllocator(memory, 10, 1.0)).isInstanceOf(IllegalArgumentException.class);
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) throw new IllegalStateException("test latch never released");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private record ExecutorServiceCloser(ExecutorService executor) implements AutoCloseable {
        @Override
        public void close() {
            executor.shutdownNow();
        }
    }
}
