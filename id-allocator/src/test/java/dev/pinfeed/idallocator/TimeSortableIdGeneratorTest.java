package dev.pinfeed.idallocator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class TimeSortableIdGeneratorTest {

    private static final Duration MAX_BACKWARD_WAIT = Duration.ofMillis(50);
    private static final Instant START = TimeSortableLayout.DEFAULT_EPOCH.plus(Duration.ofDays(100));

    private final TimeSortableLayout layout = new TimeSortableLayout(TimeSortableLayout.DEFAULT_EPOCH);
    private final FakeClock clock = new FakeClock(START);
    private final TimeSortableIdGenerator generator = new TimeSortableIdGenerator(layout, clock, clock, MAX_BACKWARD_WAIT);

    @Test
    void idsOfOneMillisecondCountUpTheSequenceAndANewMillisecondRestartsIt() {
        TimeSortableId first = layout.decode(generator.next(12));
        TimeSortableId second = layout.decode(generator.next(12));
        clock.advance(Duration.ofMillis(1));
        TimeSortableId third = layout.decode(generator.next(12));

        assertThat(first.timestamp()).isEqualTo(START);
        assertThat(first.shard()).isEqualTo(12);
        assertThat(List.of(first.sequence(), second.sequence(), third.sequence())).containsExactly(0, 1, 0);
        assertThat(third.timestamp()).isEqualTo(START.plusMillis(1));
        assertThat(clock.pauses()).isEmpty();
    }

    @Test
    void shardsHaveTheirOwnSequences() {
        assertThat(layout.decode(generator.next(1)).sequence()).isZero();
        assertThat(layout.decode(generator.next(2)).sequence()).isZero();
        assertThat(layout.decode(generator.next(1)).sequence()).isOne();
    }

    @Test
    void aSpentSequenceWaitsForTheNextMillisecond() {
        long last = 0;
        for (int i = 0; i < TimeSortableLayout.SEQUENCES_PER_MILLI; i++) last = generator.next(5);
        assertThat(layout.decode(last).sequence()).isEqualTo(1023);
        assertThat(clock.pauses()).isEmpty();

        TimeSortableId overflow = layout.decode(generator.next(5));

        assertThat(overflow.timestamp()).isEqualTo(START.plusMillis(1));
        assertThat(overflow.sequence()).isZero();
        assertThat(clock.totalPaused()).isGreaterThan(Duration.ZERO).isLessThanOrEqualTo(Duration.ofMillis(1));
    }

    @Test
    void aClockThatWentBackWithinTheBoundIsWaitedOut() {
        clock.advance(Duration.ofMillis(100));
        long before = generator.next(3);
        clock.advance(Duration.ofMillis(-30));

        long after = generator.next(3);

        assertThat(after).isGreaterThan(before);
        assertThat(layout.decode(after).timestamp()).isAfterOrEqualTo(layout.decode(before).timestamp());
        assertThat(clock.totalPaused()).isEqualTo(Duration.ofMillis(30));
    }

    @Test
    void aClockThatWentBackFurtherThanTheBoundFailsAtOnceAndRecoversWhenItCatchesUp() {
        long before = generator.next(3);
        clock.advance(Duration.ofMillis(-51));

        assertThatThrownBy(() -> generator.next(3)).isInstanceOf(ClockMovedBackwardsException.class)
                .hasMessageContaining("51 ms behind");
        assertThat(clock.pauses()).isEmpty();

        clock.advance(Duration.ofMillis(52));
        assertThat(generator.next(3)).isGreaterThan(before);
    }

    @Test
    void aClockThatStaysBehindFailsOnceTheBoundIsWaited() {
        generator.next(3);
        clock.advance(Duration.ofMillis(-20));
        clock.freeze();

        assertThatThrownBy(() -> generator.next(3)).isInstanceOf(ClockMovedBackwardsException.class)
                .hasMessageContaining("after waiting 40 ms");
        assertThat(clock.totalPaused()).isEqualTo(Duration.ofMillis(40));
    }

    @Test
    void aStalledClockWithASpentSequenceFailsInsteadOfSpinningForever() {
        for (int i = 0; i < TimeSortableLayout.SEQUENCES_PER_MILLI; i++) generator.next(9);
        clock.freeze();

        assertThatThrownBy(() -> generator.next(9)).isInstanceOf(IdAllocationException.class).hasMessageContaining("not advanced");
        assertThat(clock.totalPaused()).isLessThanOrEqualTo(TimeSortableIdGenerator.STALLED_CLOCK_LIMIT);
    }

    @Test
    void aClockBeforeTheEpochOrPastTheLayoutFails() {
        clock.set(layout.epoch().minusMillis(1));
        assertThatThrownBy(() -> generator.next(0)).isInstanceOf(IdAllocationException.class).hasMessageContaining("before the id epoch");

        clock.set(layout.exhaustedAt());
        assertThatThrownBy(() -> generator.next(0)).isInstanceOf(IdAllocationException.class).hasMessageContaining("ran out");
    }

    @Test
    void rejectsShardsOutsideThirteenBits() {
        assertThatThrownBy(() -> generator.next(8192)).isInstanceOf(InvalidIdException.class);
        assertThatThrownBy(() -> generator.next(-1)).isInstanceOf(InvalidIdException.class);
    }

    @Test
    void threadsTogetherGetUniqueIdsIncreasingPerShardOnTheSystemClock() throws Exception {
        TimeSortableIdGenerator real = TimeSortableIdGenerator.systemClock(layout, MAX_BACKWARD_WAIT);
        assertUniqueAndIncreasingPerShard(real, 8, 20_000, 3);
    }

    @Test
    void threadsTogetherGetUniqueIdsIncreasingPerShardOnASlowFakeClock() throws Exception {
        // Time moves only while a thread waits, so every millisecond's sequence runs out and threads race for it.
        FakeClock slow = new FakeClock(START);
        TimeSortableIdGenerator fake = new TimeSortableIdGenerator(layout, slow, slow, MAX_BACKWARD_WAIT);
        assertUniqueAndIncreasingPerShard(fake, 4, 10_000, 2);
    }

    private void assertUniqueAndIncreasingPerShard(TimeSortableIdGenerator gen, int threads, int idsPerThread, int shards)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Callable<long[]>> tasks = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                tasks.add(() -> {
                    long[] ids = new long[idsPerThread];
                    for (int i = 0; i < idsPerThread; i++) ids[i] = gen.next(i % shards);
                    return ids;
                });
            }
            Set<Long> all = new HashSet<>();
            for (Future<long[]> f : pool.invokeAll(tasks)) {
                long[] ids = f.get();
                long[] lastPerShard = new long[shards];
                java.util.Arrays.fill(lastPerShard, -1);
                for (int i = 0; i < ids.length; i++) {
                    int shard = layout.decode(ids[i]).shard();
                    assertThat(shard).isEqualTo(i % shards);
                    assertThat(ids[i]).as("per-shard order seen by one thread").isGreaterThan(lastPerShard[shard]);
                    lastPerShard[shard] = ids[i];
                    all.add(ids[i]);
                }
            }
            assertThat(all).hasSize(threads * idsPerThread);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void requiresItsCollaborators() {
        assertThatThrownBy(() -> new TimeSortableIdGenerator(layout, InstantSource.system(), Waiter.parking(), Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
