package dev.pinfeed.loadharness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The report's arithmetic and the workload's mix; no servers. */
class ReportTest {

    @Test
    void percentilesComeFromMicrosecondsAndReadAsMilliseconds() {
        Histogram h = new Histogram(3);
        for (int i = 1; i <= 1000; i++) h.recordValue(i * 100L); // 0.1 ms … 100 ms
        Report.Latency l = Report.Latency.ofMicros(h);
        assertThat(l.count()).isEqualTo(1000);
        assertThat(l.p50Ms()).isCloseTo(50.0, within(0.1));
        assertThat(l.p99Ms()).isCloseTo(99.0, within(0.1));
        assertThat(l.maxMs()).isCloseTo(100.0, within(0.1));
        assertThat(Report.Latency.ofMicros(new Histogram(3))).isEqualTo(Report.Latency.NONE);
    }

    @Test
    void ratesAndRatios() {
        assertThat(Report.perSecond(50_000, 20_000_000_000L)).isEqualTo(2500.0);
        assertThat(Report.perSecond(1, 0)).isNaN();
        assertThat(Report.ratio(60, 120)).isEqualTo(0.5);
        assertThat(Report.ratio(60, 0)).isNaN();
        assertThat(Report.round(0.12345, 3)).isEqualTo(0.123);
        assertThat(Report.round(Double.NaN, 3)).isNull();
        assertThat(Report.thousands(1234567.4)).isEqualTo("1 234 567");
        assertThat(Report.ms(3.14159)).isEqualTo("3.14");
        assertThat(Report.ms(31.4159)).isEqualTo("31.4");
    }

    @Test
    void tableAndSummaryRelateEveryEventRateToTheRawBaseline() {
        Report r = new Report();
        r.add(new Report.Phase("raw", "raw", "records", 100_000, Report.Latency.NONE, 0, 0, new CpuMeter.Split(1.0, 0.0, 0.5, 0.3, 0.9), ""));
        r.add(new Report.Phase("peak", "peak", "events", 40_000, new Report.Latency(10, 5, 12.5, 30), 10, 0, new CpuMeter.Split(1.46, 0.8, 0.5, 0.04, 1.0), "n"));
        r.add(new Report.Phase("single", "single", "requests", 2_000, new Report.Latency(10, 2, 4, 8), 10, 0, CpuMeter.Split.NONE, ""));
        String table = r.markdownTable("raw");
        assertThat(table).contains("| raw | 100 000 records/s | 1.00 |")
                .contains("| peak (n) | 40 000 events/s | 0.40 | 5.00 | 12.5 | 30.0 | 10 | 0 | 1.5 (0.8) / 0.5 / 0.0 |")
                .contains("| single | 2 000 requests/s | — |").contains("| — (—) / — / — |");
        Map<String, Object> s = r.summary(Map.of("batch", 100), "raw");
        assertThat(s.get("batch")).isEqualTo(100);
        @SuppressWarnings("unchecked") Map<String, Object> peak = (Map<String, Object>) s.get("peak");
        assertThat(peak).containsEntry("ratioToRaw", 0.4).containsEntry("p99Ms", 12.5);
        @SuppressWarnings("unchecked") Map<String, Object> single = (Map<String, Object>) s.get("single");
        assertThat(single).doesNotContainKey("ratioToRaw");
    }

    @Test
    void everyBatchHoldsTwentyPercentCreates() {
        Workload w = new Workload(java.util.List.of(1L, 2L), java.util.List.of(new Workload.Board(10, 1)), java.util.List.of(100L));
        String body = new String(w.eventsBody(new SplittableRandom(1), 100), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(body.split("\"PinCreated\"", -1)).hasSize(21);
        assertThat(body.split("\"type\"", -1)).hasSize(101);
        assertThat(w.creates(1)).isZero();
        assertThat(w.creates(500)).isEqualTo(100);
        assertThat(w.withCreatePercent(0).eventsBody(new SplittableRandom(1), 50)).asString().doesNotContain("PinCreated");
    }
}
