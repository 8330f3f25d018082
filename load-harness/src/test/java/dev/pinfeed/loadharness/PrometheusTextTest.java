package dev.pinfeed.loadharness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    @Test
    void readsCountersAndAHistogramsBucketsFromARegistrysScrape() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Timer feed = Timer.builder("http_request_duration").tags("route", "/v1/users/{userId}/feed", "method", "GET")
                .serviceLevelObjectives(Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(10)).register(registry);
        Timer.builder("http_request_duration").tags("route", "/health/live", "method", "GET")
                .serviceLevelObjectives(Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(10)).register(registry)
                .record(Duration.ofMillis(20));
        feed.record(Duration.ofMillis(3));
        feed.record(Duration.ofMillis(4));
        feed.record(Duration.ofMillis(7));
        Counter.builder("feed_generator_fallbacks").tag("reason", "deadline").register(registry).increment(2);
        Counter.builder("feed_generator_fallbacks").tag("reason", "error").register(registry).increment(3);

        PrometheusText text = PrometheusText.parse(registry.scrape());

        assertThat(text.buckets("http_request_duration_seconds", Map.of("route", "/v1/users/{userId}/feed"))).containsExactly(
                new PrometheusText.Bucket(0.001, 0), new PrometheusText.Bucket(0.005, 2), new PrometheusText.Bucket(0.01, 3),
                new PrometheusText.Bucket(Double.POSITIVE_INFINITY, 3));
        assertThat(text.sum("http_request_duration_seconds_count", Map.of("route", "/v1/users/{userId}/feed"))).isEqualTo(3);
        assertThat(text.sum("http_request_duration_seconds_count", Map.of())).isEqualTo(4);
        assertThat(text.sum("feed_generator_fallbacks_total", Map.of("reason", "error"))).isEqualTo(3);
        assertThat(text.sum("feed_generator_fallbacks_total", Map.of())).isEqualTo(5);
        assertThat(text.sum("no_such_metric", Map.of())).isZero();
    }

    @Test
    void labelValuesMayHoldEscapesBracesAndCommas() {
        PrometheusText text = PrometheusText.parse("""
                # HELP x a metric
                # TYPE x gauge
                x{a="q\\"uote,{b}",b="back\\\\slash"} 1.5 1700000000000
                x{a="other"} +Inf
                y 2
                """);

        assertThat(text.sum("x", Map.of("a", "q\"uote,{b}", "b", "back\\slash"))).isEqualTo(1.5);
        assertThat(text.sum("x", Map.of("a", "other"))).isInfinite();
        assertThat(text.sum("y", Map.of())).isEqualTo(2);
        assertThat(text.buckets("x", Map.of())).isEqualTo(List.of());
    }

    @Test
    void aLineThatIsNoSampleFailsWithTheLine() {
        assertThatThrownBy(() -> PrometheusText.parse("x{a=unquoted} 1\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("x{a=unquoted} 1");
        assertThatThrownBy(() -> PrometheusText.parse("x 1 2\nnot-a-number here\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not-a-number here");
    }
}
