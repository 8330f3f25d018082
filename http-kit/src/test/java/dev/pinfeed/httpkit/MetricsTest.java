package dev.pinfeed.httpkit;

import static dev.pinfeed.httpkit.TestHttp.get;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What {@code GET /metrics} exports through Micrometer: the names and labels dashboards know, plus JVM and server meters. */
@Timeout(60) // a hang guard for a loaded box, not a timing
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
            if (line.isEmpty()) {
                continue;
            }
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

    private static boolean has(List<Sample> samples, String name, Map<String, String> labels) {
        return samples.stream().anyMatch(s -> s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet()));
    }

    @Test
    void httpMetersKeepTheirPrometheusNamesAndLabels() {
        HttpApp app = HttpApp.builder("names-test")
                .route("GET", "/v1/things/{id}", r -> Response.empty(204))
                .build();
        try (RunningHttpApp running = app.start("127.0.0.1", 0)) {
            get(running, "/v1/things/1");

            String text = get(running, "/metrics").body();
            List<Sample> samples = parse(text);

            assertThat(text).contains("# TYPE http_requests_total counter\n")
                    .contains("# TYPE http_request_duration_seconds histogram\n")
                    .contains("# TYPE http_in_flight_requests gauge\n");
            Map<String, String> route = Map.of("service", "names-test", "route", "/v1/things/{id}", "method", "GET");
            Map<String, String> ok = new LinkedHashMap<>(route);
            ok.put("status", "204");
            assertThat(value(samples, "http_requests_total", ok)).isEqualTo(1);
            // Exactly today's bucket bounds, then +Inf, cumulative.
            List<Sample> buckets = samples.stream()
                    .filter(s -> s.name().equals("http_request_duration_seconds_bucket") && s.labels().get("route").equals("/v1/things/{id}"))
                    .toList();
            List<Double> bounds = new ArrayList<>(Arrays.stream(HttpApp.LATENCY_BUCKETS).boxed().toList());
            bounds.add(Double.POSITIVE_INFINITY);
            assertThat(buckets).extracting(s -> Double.parseDouble(s.labels().get("le").replace("+Inf", "Infinity")))
                    .containsExactlyElementsOf(bounds);
            assertThat(buckets.get(buckets.size() - 1).value()).isEqualTo(1);
            assertThat(value(samples, "http_request_duration_seconds_count", route)).isEqualTo(1);
            assertThat(has(samples, "http_request_duration_seconds_sum", route)).isTrue();
            assertThat(has(samples, "http_in_flight_requests", Map.of("service", "names-test"))).isTrue();
        }
    }

    @Test
    void jvmProcessServerAndHandlerPoolMetersAreExported() {
        try (RunningHttpApp running = HttpApp.builder("jvm-test").build().start("127.0.0.1", 0)) {
            List<Sample> samples = parse(get(running, "/metrics").body());

            for (String name : List.of("jvm_memory_used_bytes", "jvm_threads_live_threads", "jvm_classes_loaded_classes",
                    "jvm_info", "process_cpu_usage", "system_cpu_count", "process_uptime_seconds",
                    "process_files_open_files", "jvm_compilation_time_ms_total")) {
                assertThat(has(samples, name, Map.of())).as(name).isTrue();
            }
            assertThat(has(samples, "jvm_memory_used_bytes", Map.of("area", "heap"))).isTrue();
            // The bounded server pool and its connections, via Micrometer's Jetty binders.
            assertThat(value(samples, "jetty_threads_config_max", Map.of("service", "jvm-test"))).isEqualTo(64);
            assertThat(has(samples, "jetty_connections_current_connections", Map.of("service", "jvm-test"))).isTrue();
            // The handler pool, via ExecutorServiceMetrics.
            assertThat(value(samples, "executor_pool_max_threads", Map.of("service", "jvm-test", "name", "http-handlers")))
                    .isEqualTo(16);
        }
    }

    @Test
    void aRestartedAppBindsTheNewServersMeters() {
        PrometheusMeterRegistry registry = Meters.newRegistry();
        HttpApp app = HttpApp.builder("restart-test").meterRegistry(registry).serverThreads(20).build();
        app.start("127.0.0.1", 0).close();
        assertThat(registry.find("jetty.threads.config.max").gauges()).isEmpty();

        try (RunningHttpApp running = app.start("127.0.0.1", 0)) {
            List<Sample> samples = parse(get(running, "/metrics").body());
            assertThat(value(samples, "jetty_threads_config_max", Map.of("service", "restart-test"))).isEqualTo(20);
            assertThat(app.meterRegistry()).isSameAs(registry);
        }
    }
}
