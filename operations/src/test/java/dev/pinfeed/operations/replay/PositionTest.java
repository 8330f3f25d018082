package dev.pinfeed.operations.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class PositionTest {

    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-28T12:00:00Z"), ZoneOffset.UTC);

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
        assertThat(Position.parse("2026-11-28T11:00:00+01:00", NOW)).isEqualTo(new Position.Time(Instant.parse("2026-11-28T10:00:00Z")));
        assertThatThrownBy(() -> Position.parse("-2w", NOW)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Position.parse("-12", NOW)).isInstanceOf(IllegalArgumentException.class);
    }
}
