package dev.pinfeed.httpkit;

import static dev.pinfeed.httpkit.TestHttp.get;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60) // a hang guard for a loaded box, not a timing
class HttpMetricsTest {

    @Test
    void requestsAreCountedByRouteTemplateAndServedAsPrometheusText() {
        PrometheusMeterRegistry registry = Meters.newRegistry();
        Counter custom = Counter.builder("widgets_total").description("Widgets.").register(registry);
        HttpApp app = HttpApp.builder("metrics-test")
                .meterRegistry(registry)
                .route("GET", "/v1/items/{itemId}", r -> {
                    custom.increment();
                    return Response.json(200, Map.of("id", r.pathParam("itemId")));
                })
                .build();
        try (RunningHttpApp running = app.start("127.0.0.1", 0)) {
            get(running, "/v1/items/1");
            get(running, "/v1/items/2");
            get(running, "/v1/unknown/3");
            get(running, "/v1/unknown/4");

            HttpResponse<String> response = get(running, "/metrics");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
            List<MetricsTest.Sample> samples = MetricsTest.parse(response.body());
            Map<String, String> route = Map.of("service", "metrics-test", "route", "/v1/items/{itemId}", "method", "GET");
            assertThat(MetricsTest.value(samples, "http_requests_total", with(route, "status", "200"))).isEqualTo(2);
            assertThat(MetricsTest.value(samples, "http_requests_total", Map.of("service", "metrics-test",
                    "route", "unmatched", "method", "GET", "status", "404"))).isEqualTo(2);
            assertThat(MetricsTest.value(samples, "http_request_duration_seconds_count", route)).isEqualTo(2);
            assertThat(MetricsTest.value(samples, "http_request_duration_seconds_bucket", with(route, "le", "+Inf"))).isEqualTo(2);
            assertThat(samples.stream().filter(s -> s.name().equals("http_request_duration_seconds_bucket")
                    && s.labels().get("route").equals("/v1/items/{itemId}")).count()).isEqualTo(HttpApp.LATENCY_BUCKETS.length + 1);
            // The scrape itself is in flight while it renders.
            assertThat(MetricsTest.value(samples, "http_in_flight_requests", Map.of("service", "metrics-test"))).isEqualTo(1);
            assertThat(MetricsTest.value(samples, "widgets_total", Map.of())).isEqualTo(2);
            assertThat(response.body()).doesNotContain("/v1/unknown");
        }
    }

    private static Map<String, String> with(Map<String, String> labels, String name, String value) {
        Map<String, String> copy = new java.util.HashMap<>(labels);
        copy.put(name, value);
        return copy;
    }
}
