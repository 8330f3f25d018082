package dev.pinfeed.fanoutstreams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class KnownActiveUsersTest {

    @Test
    void aUserIsKnownActiveUpToAndIncludingHisTime() {
        KnownActiveUsers known = new KnownActiveUsers(10);
        assertThat(known.isActive(7, 100)).isFalse();
        known.activeUntil(7, 500);
        assertThat(known.isActive(7, 100)).isTrue();
        assertThat(known.isActive(7, 500)).isTrue();
        assertThat(known.isActive(7, 501)).isFalse();
        assertThat(known.isActive(8, 100)).isFalse();
    }

    @Test
    void aLaterTimeExtendsAnEarlierOneNeverShortensIt() {
        KnownActiveUsers known = new KnownActiveUsers(10);
        known.activeUntil(7, 500);
        known.activeUntil(7, 300);
        assertThat(known.isActive(7, 400)).isTrue();
        known.activeUntil(7, 900);
        assertThat(known.isActive(7, 800)).isTrue();
    }

    @Test
    void aCollisionOnlyForgetsTheEarlierUser() {
        KnownActiveUsers known = new KnownActiveUsers(1); // two slots: of three users, two share one
        for (long u = 1; u <= 3; u++) known.activeUntil(u, 1_000);
        int remembered = 0;
        for (long u = 1; u <= 3; u++) if (known.isActive(u, 10)) remembered++;
        assertThat(remembered).isBetween(1, 2);
        assertThat(known.isActive(3, 10)).as("the last one written is remembered").isTrue();
    }

    @Test
    void slotBitsAreBounded() {
        assertThatThrownBy(() -> new KnownActiveUsers(0)).hasMessageContaining("1..30");
        assertThatThrownBy(() -> new KnownActiveUsers(31)).hasMessageContaining("1..30");
    }
}
