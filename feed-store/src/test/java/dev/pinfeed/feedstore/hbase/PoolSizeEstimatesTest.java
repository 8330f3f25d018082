package dev.pinfeed.feedstore.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.feedstore.Source;
import org.junit.jupiter.api.Test;

class PoolSizeEstimatesTest {

    @Test
    void eachPoolCountsWhatWasWrittenToItUntilACheckSetsItsRows() {
        PoolSizeEstimates sizes = new PoolSizeEstimates(20);
        assertThat(sizes.add(7, Source.FOLLOWED_USER, 3)).isEqualTo(3);
        assertThat(sizes.add(7, Source.FOLLOWED_USER, 2)).isEqualTo(5);
        assertThat(sizes.add(7, Source.FOLLOWED_BOARD, 1)).isEqualTo(1);
        assertThat(sizes.add(8, Source.FOLLOWED_USER, 1)).isEqualTo(1);
        sizes.set(7, Source.FOLLOWED_USER, 2);
        assertThat(sizes.add(7, Source.FOLLOWED_USER, 1)).isEqualTo(3);
        assertThat(sizes.add(7, Source.FOLLOWED_BOARD, 0)).isEqualTo(1);
    }

    @Test
    void poolsSharingASlotAddUpSoTheirChecksComeEarlyNeverLate() {
        PoolSizeEstimates twoSlots = new PoolSizeEstimates(1);
        long a = 1, b = 2;
        while (twoSlots.slot(a, Source.FOLLOWED_USER) != twoSlots.slot(b, Source.FOLLOWED_USER)) b++;
        twoSlots.add(a, Source.FOLLOWED_USER, 4);
        assertThat(twoSlots.add(b, Source.FOLLOWED_USER, 1)).isEqualTo(5);
    }

    @Test
    void nearbyIdsSpreadOverTheSlots() {
        PoolSizeEstimates sizes = new PoolSizeEstimates(10);
        java.util.Set<Integer> used = new java.util.HashSet<>();
        for (long u = 1000; u < 1512; u++) used.add(sizes.slot(u, Source.FOLLOWED_USER));
        assertThat(used).hasSizeGreaterThan(300); // 512 ids into 1 024 slots: ~400 distinct if spread evenly
    }

    @Test
    void anEstimateSaturatesInsteadOfOverflowing() {
        PoolSizeEstimates sizes = new PoolSizeEstimates(4);
        sizes.add(1, Source.FOLLOWED_USER, Integer.MAX_VALUE);
        assertThat(sizes.add(1, Source.FOLLOWED_USER, 5)).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void slotsAreBetweenTwoAndTwoHundredMillion() {
        assertThatThrownBy(() -> new PoolSizeEstimates(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PoolSizeEstimates(29)).isInstanceOf(IllegalArgumentException.class);
    }

}
