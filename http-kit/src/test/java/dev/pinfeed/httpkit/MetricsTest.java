package dev.pinfeed.httpkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class MetricsTest {

    /** One sample line of the text format 0.0.4: name, optional labels, value. */
    static final Pattern SAMPLE = Pattern.compile(
            "([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{((?:[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\[\\\\\"n])*\",?)*)})? "
                    + "(NaN|[+-]Inf|-?[0-9]+(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)");
    static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    record Sample(String name, Map<String, String> labels, double value) {
    }

    /** Parses a whole exposition, failing on any line that is not a valid comment or sample. */
    static List<Sample> parse(String exposition) {
        assertThat(exposition).endsWith("\n");
        List<Sample> samples = new ArrayList<>();
        for (String line : exposition.split("\n")) {
            if (line.startsWith("# HELP ") || line.startsWith("# TYPE ")) {
                if (line.startsWith("# TYPE ")) {
                    assertThat(line).matches("# TYPE [a-zA-Z_:][a-zA-Z0-9_:]* (counter|gauge|histogram|summary|untyped)");
                }
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            assertThat(m.matches()).as("valid sample line: %s", line).isTrue();
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(3) != null) {
                Matcher l = LABEL.matcher(m.group(3));
                while (l.find()) {
                    labels.put(l.group(1), unescape(l.group(2)));
                }
            }
            String value = m.group(4);
            samples.add(new Sample(m.group(1), labels,
                    value.equals("+Inf") ? Double.POSITIVE_INFINITY : value.equals("-Inf") ? Double.NEGATIVE_INFINITY
                            : Double.parseDouble(value)));
        }
        return samples;
    }

    static String unescape(String escaped) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < escaped.length(); i++) {
            char c = escaped.charAt(i);
            if (c == '\\') {
                char next = escaped.charAt(++i);
                out.append(next == 'n' ? '\n' : next);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    static double value(List<Sample> samples, String name, Map<String, String> labels) {
        return samples.stream().filter(s -> s.name().equals(name) && s.labels().equals(labels))
                .mapToDouble(Sample::value).findFirst()
                .orElseThrow(() -> new AssertionError("no sample " + name + labels + " in " + samples));
    }

    @Test
    void counterRendersHelpTypeAndEscapedLabels() {
        Metrics metrics = new Metrics();
        Metrics.Counter counter = metrics.counter("events_published_total", "Events published.\nPer \\ topic.", "topic", "result");
        counter.inc("follows", "ok");
        counter.inc(4, "follows", "ok");
        counter.inc("we\"ird\\na\nme", "error");

        String text = metrics.scrape();

        assertThat(text).startsWith("# HELP events_published_total Events published.\\nPer \\\\ topic.\n"
                + "# TYPE events_published_total counter\n");
        assertThat(text).contains("events_published_total{topic=\"we\\\"ird\\\\na\\nme\",result=\"error\"} 1\n");
        List<Sample> samples = parse(text);
        assertThat(value(samples, "events_published_total", Map.of("topic", "follows", "result", "ok"))).isEqualTo(5);
        assertThat(value(samples, "events_published_total", Map.of("topic", "we\"ird\\na\nme", "result", "error"))).isEqualTo(1);
        assertThat(counter.value("follows", "ok")).isEqualTo(5);
    }

    @Test
    void unlabelledMetricsStartAtZero() {
        Metrics metrics = new Metrics();
        metrics.counter("starts_total", "Starts.");
        metrics.histogram("wait_seconds", "Waits.", new double[] {0.1, 1});

        List<Sample> samples = parse(metrics.scrape());

        assertThat(value(samples, "starts_total", Map.of())).isZero();
        assertThat(value(samples, "wait_seconds_bucket", Map.of("le", "+Inf"))).isZero();
        assertThat(value(samples, "wait_seconds_count", Map.of())).isZero();
    }

    @Test
    void histogramBucketsAreCumulativeWithSumAndCount() {
        Metrics metrics = new Metrics();
        Metrics.Histogram histogram = metrics.histogram("publish_seconds", "Publish latency.",
                new double[] {0.0005, 0.01, 0.1, 1, 2.5}, "topic");
        for (double seconds : new double[] {0.0001, 0.0005, 0.005, 0.05, 0.05, 0.5, 3, 10}) {
            histogram.observe(seconds, "follows");
        }

        String text = metrics.scrape();
        List<Sample> samples = parse(text);

        assertThat(text).contains("# TYPE publish_seconds histogram\n")
                .contains("publish_seconds_bucket{topic=\"follows\",le=\"0.0005\"} 2\n")
                .contains("publish_seconds_bucket{topic=\"follows\",le=\"1.0\"} 6\n");
        List<Sample> buckets = samples.stream().filter(s -> s.name().equals("publish_seconds_bucket")).toList();
        assertThat(buckets).extracting(s -> s.labels().get("le"))
                .containsExactly("0.0005", "0.01", "0.1", "1.0", "2.5", "+Inf");
        assertThat(buckets).extracting(Sample::value).containsExactly(2.0, 3.0, 5.0, 6.0, 6.0, 8.0);
        for (int i = 1; i < buckets.size(); i++) {
            assertThat(buckets.get(i).value()).isGreaterThanOrEqualTo(buckets.get(i - 1).value());
        }
        assertThat(value(samples, "publish_seconds_count", Map.of("topic", "follows"))).isEqualTo(8);
        assertThat(value(samples, "publish_seconds_sum", Map.of("topic", "follows"))).isCloseTo(13.6056, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(histogram.count("follows")).isEqualTo(8);
    }

    @Test
    void gaugesAreReadAtScrapeTime() {
        Metrics metrics = new Metrics();
        AtomicLong depth = new AtomicLong(3);
        metrics.gauge("queue_depth", "Queue depth.", depth::get);
        metrics.gauge("pool_size", "Pool size.", Map.of("pool", "main"), () -> 2.5);

        depth.set(7);
        List<Sample> samples = parse(metrics.scrape());

        assertThat(value(samples, "queue_depth", Map.of())).isEqualTo(7);
        assertThat(value(samples, "pool_size", Map.of("pool", "main"))).isEqualTo(2.5);
    }

    @Test
    void registrationIsIdempotentButChecked() {
        Metrics metrics = new Metrics();
        Metrics.Counter first = metrics.counter("a_total", "A.", "x");

        assertThat(metrics.counter("a_total", "A.", "x")).isSameAs(first);
        assertThatThrownBy(() -> metrics.counter("a_total", "A.", "y")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> metrics.histogram("a_total", "A.", new double[] {1}, "x"))
                .isInstanceOf(IllegalArgumentException.class);
        metrics.histogram("h", "H.", new double[] {1, 2});
        assertThatThrownBy(() -> metrics.histogram("h", "H.", new double[] {1, 3})).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> first.inc()).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> first.inc(-1, "v")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> metrics.counter("bad-name", "B.")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> metrics.counter("b", "B.", "__reserved")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> metrics.histogram("c", "C.", new double[] {1}, "le")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> metrics.histogram("d", "D.", new double[] {2, 1})).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void numbersUseThePrometheusSpelling() {
        assertThat(Metrics.formatDouble(1)).isEqualTo("1.0");
        assertThat(Metrics.formatDouble(0.0005)).isEqualTo("0.0005");
        assertThat(Metrics.formatDouble(2.5)).isEqualTo("2.5");
        assertThat(Metrics.formatDouble(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
        assertThat(Metrics.formatDouble(Double.NaN)).isEqualTo("NaN");
        assertThat(Metrics.formatDouble(1e-9)).isEqualTo("1.0E-9");
    }
}
