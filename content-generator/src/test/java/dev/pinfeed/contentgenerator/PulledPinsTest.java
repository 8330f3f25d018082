package dev.pinfeed.contentgenerator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.Source;
import java.util.List;
import org.junit.jupiter.api.Test;

class PulledPinsTest {

    private static PoolEntry entry(long reader, long pin, Source source, long createdAt) {
        return new PoolEntry(reader, source, 1.0, pin, 7, 8, createdAt);
    }

    @Test
    void rememberedPinsAreLeftOutUnlessTheirSourceChanged() {
        PulledPins pulled = new PulledPins(100);
        PoolEntry a = entry(1, 10, Source.FOLLOWED_USER, 1_000);
        PoolEntry b = entry(1, 11, Source.FOLLOWED_USER, 2_000);
        pulled.remember(1, List.of(a), 0);

        assertThat(pulled.notYet(1, List.of(a, b))).containsExactly(b);
        assertThat(pulled.notYet(1, List.of(entry(1, 10, Source.FOLLOWED_BOARD, 1_000)))).hasSize(1);
        assertThat(pulled.notYet(2, List.of(entry(2, 10, Source.FOLLOWED_USER, 1_000)))).as("another reader").hasSize(1);
    }

    @Test
    void pinsBeforeTheWindowAreDroppedAndTheLeastRecentReadersGoFirstPastTheMaximum() {
        PulledPins pulled = new PulledPins(3);
        pulled.remember(1, List.of(entry(1, 10, Source.FOLLOWED_USER, 1_000), entry(1, 11, Source.FOLLOWED_USER, 2_000)), 0);
        pulled.remember(1, List.of(), 1_500);
        assertThat(pulled.size()).isEqualTo(1);
        assertThat(pulled.notYet(1, List.of(entry(1, 10, Source.FOLLOWED_USER, 1_000)))).as("dropped: before the window").hasSize(1);

        pulled.remember(2, List.of(entry(2, 20, Source.FOLLOWED_USER, 3_000)), 0);
        pulled.remember(1, List.of(entry(1, 12, Source.FOLLOWED_USER, 3_000)), 1_500); // reader 1 is now the most recent
        pulled.remember(3, List.of(entry(3, 30, Source.FOLLOWED_USER, 3_000)), 0);     // 4 pins: reader 2 goes

        assertThat(pulled.size()).isEqualTo(3);
        assertThat(pulled.notYet(2, List.of(entry(2, 20, Source.FOLLOWED_USER, 3_000)))).hasSize(1);
        assertThat(pulled.notYet(1, List.of(entry(1, 11, Source.FOLLOWED_USER, 2_000), entry(1, 12, Source.FOLLOWED_USER, 3_000)))).isEmpty();
    }

    @Test
    void aMaximumOfZeroRemembersNothing() {
        PulledPins pulled = new PulledPins(0);
        pulled.remember(1, List.of(entry(1, 10, Source.FOLLOWED_USER, 1_000)), 0);
        assertThat(pulled.size()).isZero();
        assertThat(pulled.notYet(1, List.of(entry(1, 10, Source.FOLLOWED_USER, 1_000)))).hasSize(1);
    }
}
