package dev.pinfeed.operations.verify.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The scan's batches: each holds at most one statement's worth of shards per host, and together every shard once. */
class IndexScanTest {

    private static String host(int shard) {
        return shard < 2048 ? "mysql001" : "mysql002";
    }

    @Test
    void eachBatchTakesTheNextShardsOfEveryHostSoEveryHostWorksInEveryBatch() {
        List<Integer> shards = IntStream.range(0, 4096).boxed().toList();
        List<List<Integer>> batches = IndexScan.batches(shards, IndexScanTest::host);
        assertThat(batches).hasSize(2048 / IndexScan.SHARDS_PER_HOST);
        for (List<Integer> batch : batches) {
            assertThat(batch.stream().filter(s -> s < 2048)).hasSize(IndexScan.SHARDS_PER_HOST);
            assertThat(batch.stream().filter(s -> s >= 2048)).hasSize(IndexScan.SHARDS_PER_HOST);
        }
        assertThat(batches.get(0)).startsWith(0, 1).contains(127, 2048, 2175).doesNotContain(128, 2176);
        assertThat(batches.stream().flatMap(List::stream).toList()).containsExactlyInAnyOrderElementsOf(shards);
    }

    @Test
    void unevenHostsEndWithBatchesOfTheLargerOneOnly() {
        List<Integer> shards = IntStream.range(0, 2048 + 130).boxed().toList();
        List<List<Integer>> batches = IndexScan.batches(shards, IndexScanTest::host);
        assertThat(batches).hasSize(16);
        assertThat(batches.get(1).stream().filter(s -> s >= 2048).collect(Collectors.toSet())).isEqualTo(Set.of(2176, 2177));
        assertThat(batches.get(2)).allMatch(s -> s < 2048).hasSize(IndexScan.SHARDS_PER_HOST);
        assertThat(IndexScan.batches(List.of(), IndexScanTest::host)).isEmpty();
    }
}
