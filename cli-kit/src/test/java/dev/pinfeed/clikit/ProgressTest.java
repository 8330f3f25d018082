package dev.pinfeed.clikit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ProgressTest {

    /** A clock the test moves. */
    private static final class Manual extends Clock {
        long millis = 1_000_000;

        @Override public ZoneOffset getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(java.time.ZoneId zone) { return this; }
        @Override public Instant instant() { return Instant.ofEpochMilli(millis); }
        @Override public long millis() { return millis; }
    }

    @Test
    void aTerminalSeesOneLineRewrittenWithRateAndEta() {
        StringWriter text = new StringWriter();
        Manual clock = new Manual();
        Progress p = Progress.start(new PrintWriter(text), Progress.Mode.TTY, "replay graph", 1000, "records", clock);
        p.tick();
        clock.millis += 2_000;
        p.advance(400);
        p.tick();
        clock.millis += 100; // within 200 ms: not drawn again
        p.advance(10);
        p.tick();
        clock.millis += 1_900;
        p.set(1000);
        p.done("0 differences");
        String s = text.toString();
        assertThat(s).contains("\rreplay graph: 400 / 1 000 records (40.0 %), 200/s, ETA 3 s");
        assertThat(s).doesNotContain("410 /");
        assertThat(s).contains("\rreplay graph: 1 000 / 1 000 records (100.0 %), 250/s, done in 4.0 s: 0 differences").endsWith("\n");
        assertThat(s.chars().filter(c -> c == '\n').count()).as("one line for the whole run").isEqualTo(1);
    }

    @Test
    void plainOutputIsAPeriodicLineAndJsonIsOneObjectPerLine() {
        StringWriter plain = new StringWriter();
        Manual clock = new Manual();
        Progress p = Progress.start(new PrintWriter(plain), Progress.Mode.PLAIN, "verify graph", -1, "keys", clock, Duration.ofSeconds(5));
        p.tick();
        clock.millis += 4_000;
        p.advance(50);
        p.tick(); // not due
        clock.millis += 1_000;
        p.tick();
        p.note("redis001: 3 keys differ");
        p.done("3 differences");
        assertThat(plain.toString().lines()).containsExactly("verify graph: 0 keys, 0/s", "verify graph: 50 keys, 10/s",
                "redis001: 3 keys differ", "verify graph: 50 keys, 10/s, done in 5.0 s: 3 differences");

        StringWriter json = new StringWriter();
        Progress j = Progress.start(new PrintWriter(json), Progress.Mode.JSON, "dlq \"redrive\"", 10, "records", clock);
        j.advance(5);
        clock.millis += 1_000;
        j.tick();
        j.done("ok");
        assertThat(json.toString().lines()).containsExactly(
                "{\"task\":\"dlq \\\"redrive\\\"\",\"done\":5,\"total\":10,\"unit\":\"records\",\"rate\":5.0,\"elapsedSeconds\":1,\"etaSeconds\":1}",
                "{\"task\":\"dlq \\\"redrive\\\"\",\"done\":5,\"total\":10,\"unit\":\"records\",\"rate\":5.0,\"elapsedSeconds\":1,\"finished\":true,\"summary\":\"ok\"}");
    }

    @Test
    void durationsReadAsAPersonWouldSayThem() {
        assertThat(Progress.duration(42)).isEqualTo("42 s");
        assertThat(Progress.duration(125)).isEqualTo("2 min 5 s");
        assertThat(Progress.duration(7_380)).isEqualTo("2 h 3 min");
    }
}
