package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Readiness detail: the failing dependencies a 503 names. */
class AppSpecTest {

    @Test
    void namesTheFailingChecksOfAHealthProblem() {
        String body = "{\"type\":\"https://pinfeed.dev/problems/dependency-down\",\"title\":\"Dependency down\",\"status\":503,"
                + "\"detail\":\"redis: connection refused; kafka: timed out after 2000 ms\","
                + "\"checks\":{\"kafka\":\"down: timed out after 2000 ms\",\"registry\":\"up\",\"redis\":\"down: connection refused\"}}";
        assertThat(AppSpec.failing(body)).isEqualTo("kafka, redis");
    }

    @Test
    void aProcessorsOneCombinedCheckShowsWhatItWaitsFor() {
        String body = "{\"status\":503,\"detail\":\"graph-processor: ...\",\"checks\":{\"graph-processor\":"
                + "\"down: kafka-group: not yet a member of group pinfeed-follower-graph\"}}";
        assertThat(AppSpec.failing(body)).isEqualTo("graph-processor (kafka-group: not yet a member of group pinfeed-follower-graph)");
    }

    @Test
    void fallsBackToTheDetailOrTheText() {
        assertThat(AppSpec.failing("{\"status\":503,\"detail\":\"warming up\"}")).isEqualTo("warming up");
        assertThat(AppSpec.failing("Service Unavailable\nmore")).isEqualTo("Service Unavailable");
        assertThat(AppSpec.failing("")).isEqualTo("503");
    }
}
