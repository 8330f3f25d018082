package dev.pinfeed.operations.dlq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.clikit.TimeArgument;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The ids and TIMEs operators type. */
class DlqArgumentsTest {

    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-28T12:00:00.123456Z"), ZoneOffset.UTC);

    @Test
    void anIdIsPartitionColonOffsetAndPrintsTheSameWay() {
        DeadLetterId id = DeadLetterId.parse(" 2:41 ");
        assertThat(id).isEqualTo(new DeadLetterId(2, 41));
        assertThat(id).hasToString("2:41");
        assertThat(DeadLetterId.parse(id.toString())).isEqualTo(id);
    }

    @ParameterizedTest
    @ValueSource(strings = {"7", "2:", ":41", "a:1", "1:-2", "-1:2", "1:2:3", "", "0x1:2"})
    void anythingElseIsRefusedWithTheExpectedForm(String text) {
        assertThatThrownBy(() -> DeadLetterId.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected PARTITION:OFFSET");
    }

    @Test
    void aListKeepsTheOrderGivenAndEachIdOnce() {
        assertThat(DeadLetterId.parseList("1:5, 0:9,1:5,,2:0")).containsExactly(new DeadLetterId(1, 5), new DeadLetterId(0, 9), new DeadLetterId(2, 0));
        assertThatThrownBy(() -> DeadLetterId.parseList(" , ")).hasMessageContaining("no dead-letter id");
        assertThatThrownBy(() -> DeadLetterId.parseList("1:5,x")).hasMessageContaining("'x'");
    }

    @Test
    void idsSortByPartitionThenOffset() {
        assertThat(Stream.of("1:2", "0:10", "0:9", "1:1").map(DeadLetterId::parse).sorted().map(DeadLetterId::toString))
                .containsExactly("0:9", "0:10", "1:1", "1:2");
    }

    @Test
    void aTimeIsAnInstantADateOrATimeAgo() {
        assertThat(TimeArgument.parse("2026-11-28T10:00:00Z", NOW)).isEqualTo(Instant.parse("2026-11-28T10:00:00Z"));
        assertThat(TimeArgument.parse("2026-11-28T11:00:00+01:00", NOW)).isEqualTo(Instant.parse("2026-11-28T10:00:00Z"));
        assertThat(TimeArgument.parse("2026-11-28T10:00:00.250Z", NOW)).isEqualTo(Instant.parse("2026-11-28T10:00:00.250Z"));
        assertThat(TimeArgument.parse("2026-11-27", NOW)).isEqualTo(Instant.parse("2026-11-27T00:00:00Z"));
        assertThat(TimeArgument.parse("-30s", NOW)).isEqualTo(Instant.parse("2026-11-28T11:59:30.123Z"));
        assertThat(TimeArgument.parse("-30m", NOW)).isEqualTo(Instant.parse("2026-11-28T11:30:00.123Z"));
        assertThat(TimeArgument.parse("-2h", NOW)).isEqualTo(Instant.parse("2026-11-28T10:00:00.123Z"));
        assertThat(TimeArgument.parse("-7d", NOW)).isEqualTo(Instant.parse("2026-11-21T12:00:00.123Z"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"yesterday", "2h", "-2w", "-h", "2026-11-28T10:00:00", "2026-13-01", "28.11.2026", ""})
    void anyOtherTimeIsRefusedNamingTheForms(String text) {
        assertThatThrownBy(() -> TimeArgument.parse(text, NOW)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad TIME").hasMessageContaining("ISO-8601 instant").hasMessageContaining("-2h");
    }
}
