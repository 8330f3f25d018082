package dev.pinfeed.redisshards;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class VirtualShardsTest {

    @Test
    void theShardOfAnIdNeverChanges() {
        // Pinned: changing the function moves every key of a live graph.
        assertThat(VirtualShards.of(1)).isEqualTo(VirtualShards.of(1));
        assertThat(new int[] {VirtualShards.of(1), VirtualShards.of(42), VirtualShards.of(241294492511762325L), VirtualShards.of(-5)})
                .containsExactly(2860, 6604, 5918, 8087); // murmur3 fmix64, checked independently
    }

    @Test
    void sequentialAndStructuredIdsSpreadOverAllShards() {
        int[] sequential = new int[VirtualShards.COUNT];
        LongStream.range(0, 819_200).forEach(id -> sequential[VirtualShards.of(id)]++);
        assertThat(java.util.Arrays.stream(sequential).summaryStatistics()).satisfies(st -> {
            assertThat(st.getMin()).isGreaterThanOrEqualTo(50);
            assertThat(st.getMax()).isLessThanOrEqualTo(150);
        });

        int[] timeSortable = new int[VirtualShards.COUNT];
        LongStream.range(0, 819_200).forEach(i -> timeSortable[VirtualShards.of((i / 4) << 23 | (i % 4) << 10)]++);
        assertThat(java.util.Arrays.stream(timeSortable).summaryStatistics()).satisfies(st -> {
            assertThat(st.getMin()).isGreaterThanOrEqualTo(50);
            assertThat(st.getMax()).isLessThanOrEqualTo(150);
        });
    }

    @Test
    void everyShardIsInRange() {
        LongStream.of(Long.MIN_VALUE, -1, 0, Long.MAX_VALUE).forEach(id -> assertThat(VirtualShards.of(id)).isBetween(0, 8191));
    }

    @Test
    void aKeysShardIsTheNumberInItsFirstHashTag() {
        assertThat(VirtualShards.shardOfKey("p:g:fu" + VirtualShards.tag(42L) + ":x")).isEqualTo(VirtualShards.of(42L));
        assertThat(VirtualShards.shardOfKey("{v8191}")).isEqualTo(8191);
        assertThat(VirtualShards.shardOfKey("a{b}{v12}")).as("only the first tag counts").isEqualTo(-1);
        assertThat(VirtualShards.shardOfKey("{v8192}")).isEqualTo(-1);
        assertThat(VirtualShards.shardOfKey("{v}")).isEqualTo(-1);
        assertThat(VirtualShards.shardOfKey("{v1x}")).isEqualTo(-1);
        assertThat(VirtualShards.shardOfKey("pinfeed:replication-barrier")).isEqualTo(-1);
    }
}
