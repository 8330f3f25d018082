package dev.pinfeed.feedstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LatencyWindowTest {

    /** Nearest rank over a sorted copy: what the window's quantile must equal, heap or sort. */
    private static long nearestRank(long[] samples, double q) {
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    @Test
    void everyQuantileIsTheNearestRankOfTheSamplesHeldWhetherFoundByHeapOrBySort() {
        SplittableRandom random = new SplittableRandom(7);
        for (int capacity : new int[] {1, 10, 1_000, 10_000}) {
            LatencyWindow window = new LatencyWindow(capacity);
            int recorded = capacity + random.nextInt(capacity + 1); // the ring has wrapped
            long[] all = new long[recorded];
            for (int i = 0; i < recorded; i++) {
                all[i] = random.nextInt(5) == 0 ? 5 : random.nextLong(1, 1_000_000); // ties too
                window.record(all[i]);
            }
            long[] held = Arrays.copyOfRange(all, recorded - capacity, recorded);
            for (double q : new double[] {0.0001, 0.5, 0.9, 0.99, 0.999, 0.9999, 1.0}) {
                assertThat(window.quantile(q)).as("capacity %d, q %s", capacity, q).isEqualTo(nearestRank(held, q));
            }
        }
    }

    @Test
    void anEmptyWindowHasNoQuantile() {
        assertThat(new LatencyWindow(10).quantile(0.999)).isEqualTo(-1);
    }
}
