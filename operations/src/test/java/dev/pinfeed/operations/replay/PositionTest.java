package dev.pinfeed.operations.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class PositionTest {

    private static final Instant NOW = Instant.parse("2026-11-28T12:00:00Z");

    @Test
    void everyFormAnOperatorTypes() {
        assertThat(Position.parse("beginning", NOW)).isInstanceOf(Position.Beginning.class);
        assertThat(Position.parse("earliest", NOW)).isInstanceOf(Position.Beginning.class);
        assertThat(Position.parse("1200", NOW)).isEqualTo(new Position.Offset(1200));
        assertThat(Position.parse("2026-11-28T10:15:00Z", NOW)).isEqualTo(new Position.Time(Instant.parse("2026-11-28T10:15:00Z")));
        assertThat(Position.parse("2026-11-27", NOW)).isEqualTo(new Position.Time(Instant.parse("2026-11-27T00:00:00Z")));
        assertThat(Position.parse("-2h", NOW)).isEqualTo(new Position.Time(Instant.parse("2026-11-28T10:00:00Z")));
        assertThat(Position.parse("-30m", NOW)).isEqualTo(new Position.Time(Instant.parse("2026-11-28T11:30:00Z")));
        assertThat(Position.parse("-7d", NOW)).isEqualTo(new Position.Time(Instant.parse("2026-11-21T12:00:00Z")));
        assertThat(Position.parse("-90s", NOW)).isEqualTo(new Position.Time(Instant.parse("2026-11-28T11:58:30Z")));
    }

    @Test
    void anythingElseIsRefusedNamingTheForms() {
        assertThatThrownBy(() -> Position.parse("yesterday", NOW)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'yesterday' is no position").hasMessageContaining("beginning").hasMessageContaining("-2h");
        assertThatThrownBy(() -> Position.parse("-2w", NOW)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Position.parse("-12", NOW)).isInstanceOf(IllegalArgumentException.class);
    }
}
