package dev.pinfeed.idallocator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TimeSortableLayoutTest {

    /**
     * The seed's worked example: 1387263000 ms after the epoch (September 1, 2011), user 31341 on
     * 2000 logical shards (shard 1341), table sequence 5001 (mod 1024 = 905). The expected value is
     * the seed's own arithmetic: id = ms << (64-41) | shard << (64-41-13) | 5001 % 1024.
     */
    @Test
    void reproducesTheSeedExample() {
        Instant epoch = Instant.parse("2011-09-01T00:00:00Z");
        TimeSortableLayout layout = new TimeSortableLayout(epoch);
        long expected = (1387263000L << (64 - 41)) | (1341L << (64 - 41 - 13)) | (5001 % 1024);

        long id = layout.composeAt(epoch.plusMillis(1387263000L), 31341 % 2000, 5001 % 1024);

        assertThat(id).isEqualTo(expected).isEqualTo(11637205501278089L);
        TimeSortableId decoded = layout.decode(id);
        assertThat(decoded.timestamp()).isEqualTo(epoch.plusMillis(1387263000L));
        assertThat(decoded.shard()).isEqualTo(1341);
        assertThat(decoded.sequence()).isEqualTo(905);
    }

    @Test
    void the41BitsRunOutAbout69YearsAfterTheEpoch() {
        TimeSortableLayout layout = new TimeSortableLayout(TimeSortableLayout.DEFAULT_EPOCH);

        assertThat(layout.exhaustedAt()).isEqualTo(Instant.parse("2095-09-07T15:47:35.552Z"));
        assertThat(layout.signBitReachedAt()).isEqualTo(Instant.parse("2060-11-03T19:53:47.776Z"));
        assertThat(Duration.between(layout.epoch(), layout.exhaustedAt()).toDays() / 365.25).isBetween(69.0, 70.0);
    }

    @Test
    void theLastMillisecondStillFitsAndTheNextDoesNot() {
        TimeSortableLayout layout = new TimeSortableLayout(TimeSortableLayout.DEFAULT_EPOCH);
        Instant lastMilli = layout.exhaustedAt().minusMillis(1);

        assertThat(layout.decode(layout.composeAt(lastMilli, 8191, 1023)).timestamp()).isEqualTo(lastMilli);
        assertThatThrownBy(() -> layout.composeAt(layout.exhaustedAt(), 0, 0)).isInstanceOf(InvalidIdException.class);
        assertThatThrownBy(() -> layout.composeAt(layout.epoch().minusMillis(1), 0, 0)).isInstanceOf(InvalidIdException.class);
    }

    @Test
    void rejectsFieldsOutOfRange() {
        TimeSortableLayout layout = new TimeSortableLayout(TimeSortableLayout.DEFAULT_EPOCH);

        assertThatThrownBy(() -> layout.compose(0, 8192, 0)).isInstanceOf(InvalidIdException.class).hasMessageContaining("logical shard 8192");
        assertThatThrownBy(() -> layout.compose(0, -1, 0)).isInstanceOf(InvalidIdException.class);
        assertThatThrownBy(() -> layout.compose(0, 0, 1024)).isInstanceOf(InvalidIdException.class).hasMessageContaining("sequence 1024");
        assertThatThrownBy(() -> layout.parse("soon")).isInstanceOf(InvalidIdException.class);
    }

    @Test
    void parsesIdsPastTheSignBitInTheirUnsignedForm() {
        TimeSortableLayout layout = new TimeSortableLayout(TimeSortableLayout.DEFAULT_EPOCH);
        long id = layout.composeAt(layout.signBitReachedAt().plusSeconds(1), 7, 3);

        assertThat(id).isNegative();
        assertThat(layout.parse(Long.toUnsignedString(id)).shard()).isEqualTo(7);
        assertThat(layout.parse(Long.toString(id)).sequence()).isEqualTo(3);
    }
}
