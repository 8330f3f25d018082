package dev.pinfeed.idallocator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

class ShardedIdHashKeyTest {

    /** Pins as the demo makes them: a few per shard, local ids from 1, over 2 000 of the 4 096 shards. */
    private static long[] fewPerShard() {
        Random random = new Random(1);
        long[] ids = new long[4_000];
        for (int i = 0; i < ids.length; i++) ids[i] = ShardedId.compose(random.nextInt(4_096), ObjectType.PIN, 1 + i % 2);
        return ids;
    }

    /** The bins of a 4 096-bin table the ids fall in, as {@code HashMap} and {@code ConcurrentHashMap} place a Long key. */
    private static int binsUsed(long[] ids, LongUnaryOperator key) {
        Set<Integer> bins = new HashSet<>();
        for (long id : ids) {
            int h = Long.hashCode(key.applyAsLong(id));
            bins.add((h ^ (h >>> 16)) & 4_095);
        }
        return bins.size();
    }

    @Test
    void idsThatDifferInTheirShardSpreadOverATablesBins() {
        long[] ids = fewPerShard();
        assertThat(binsUsed(ids, id -> id)).as("the id itself").isLessThan(1_100);
        assertThat(binsUsed(ids, ShardedId::hashKey)).as("its hash key").isGreaterThan(1_800);
    }

    @Test
    void distinctIdsKeepDistinctKeys() {
        Set<Long> keys = new HashSet<>();
        long[] ids = fewPerShard();
        Set<Long> distinct = new HashSet<>();
        for (long id : ids) {
            distinct.add(id);
            keys.add(ShardedId.hashKey(id));
        }
        for (long local = 1; local <= 100_000; local++) {
            long id = ShardedId.compose(7, ObjectType.USER, local);
            distinct.add(id);
            keys.add(ShardedId.hashKey(id));
        }
        assertThat(keys).hasSameSizeAs(distinct);
    }
}
