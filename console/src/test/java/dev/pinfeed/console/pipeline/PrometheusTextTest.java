package dev.pinfeed.console.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    @Test
    void sumsEverySeriesOfTheMetricOnly() {
        String text = """
                # HELP fanout_jobs_pending Fan-out jobs read and not yet done.
                # TYPE fanout_jobs_pending gauge
                fanout_jobs_pending{task="0_0"} 3.0
                fanout_jobs_pending{task="0_1",note="a } in a label"} 4.0 1764360000000
                fanout_jobs_pending_total 99.0
                other_metric 5.0
                """;

        assertThat(PrometheusText.sum(text, "fanout_jobs_pending")).hasValue(7.0);
        assertThat(PrometheusText.sum("fanout_jobs_pending 2\n", "fanout_jobs_pending")).hasValue(2.0);
    }

    @Test
    void aMetricNotPublishedIsEmpty() {
        assertThat(PrometheusText.sum("# TYPE fanout_jobs_pending gauge\nother 1.0\n", "fanout_jobs_pending")).isEmpty();
    }
}
