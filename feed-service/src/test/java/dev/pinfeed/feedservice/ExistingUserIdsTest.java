package dev.pinfeed.feedservice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ExistingUserIdsTest {

    @Test
    void anIdIsKnownOnlyOnceAdded() {
        ExistingUserIds ids = new ExistingUserIds(1 << 10);
        assertThat(ids.contains(42)).isFalse();
        ids.add(42);
        assertThat(ids.contains(42)).isTrue();
        assertThat(ids.contains(43)).isFalse();
    }

    @Test
    void anIdThatLosesItsSlotIsNoLongerKnownAndNoOtherIdIsTakenForIt() {
        ExistingUserIds ids = new ExistingUserIds(1); // every id shares the one slot
        ids.add(42);
        ids.add(7);
        assertThat(ids.contains(42)).isFalse();
        assertThat(ids.contains(7)).isTrue();
    }

    @Test
    void zeroMarksAnEmptySlotAndIsNeverKnown() {
        ExistingUserIds ids = new ExistingUserIds(4);
        assertThat(ids.contains(0)).isFalse();
        ids.add(0);
        assertThat(ids.contains(0)).isFalse();
    }

    @Test
    void manyIdsMostlyKeepTheirSlots() {
        ExistingUserIds ids = new ExistingUserIds(1 << 12);
        for (long i = 1; i <= 1000; i++) ids.add((i << 20) | 2); // ids differing only in their high bits, as sharded ids do
        int known = 0;
        for (long i = 1; i <= 1000; i++) if (ids.contains((i << 20) | 2)) known++;
        assertThat(known).isGreaterThan(850);
    }

    @Test
    void slotsArePowersOfTwo() {
        assertThatThrownBy(() -> new ExistingUserIds(3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ExistingUserIds(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
