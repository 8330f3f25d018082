package dev.pinfeed.console.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.console.pipeline.PipelineSettings.ProcessTarget;
import dev.pinfeed.console.pipeline.PipelineSnapshot.ProcessStatus;
import dev.pinfeed.console.pipeline.PipelineSources.HealthAnswer;
import dev.pinfeed.console.pipeline.Probes.Outcome;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProcessStatesTest {

    private static final ProcessTarget WORKER = new ProcessTarget("feed-worker", "Feed worker", URI.create("http://127.0.0.1:8094/"), null);
    private static final Outcome<HealthAnswer> LIVE = answer(200, Map.of("process", "up"), null);
    private static final Outcome<HealthAnswer> NO_ANSWER = new Outcome<>(null, "connection refused");

    @Test
    void liveAndReadyIsUp() {
        ProcessStatus s = ProcessStates.of(WORKER, LIVE, answer(200, Map.of("feed-worker", "up"), null));

        assertThat(s.state()).isEqualTo("up");
        assertThat(s.live()).isTrue();
        assertThat(s.ready()).isTrue();
        assertThat(s.detail()).isNull();
        assertThat(s.checks()).containsEntry("feed-worker", "up");
        assertThat(s.url()).isEqualTo("http://127.0.0.1:8094/");
        assertThat(s.role()).isEqualTo("Feed worker");
    }

    @Test
    void liveButNotReadyNamesTheFailingChecks() {
        Map<String, String> checks = new LinkedHashMap<>();
        checks.put("kafka", "up");
        checks.put("hbase", "down: timeout after 2 s");
        checks.put("redis001", "down: connection refused");
        ProcessStatus s = ProcessStates.of(WORKER, LIVE, answer(503, checks, "hbase: timeout after 2 s; redis001: connection refused"));

        assertThat(s.state()).isEqualTo("not ready");
        assertThat(s.live()).isTrue();
        assertThat(s.ready()).isFalse();
        assertThat(s.detail()).isEqualTo("hbase: timeout after 2 s; redis001: connection refused");
        assertThat(s.checks()).containsExactlyEntriesOf(checks);
    }

    @Test
    void aProcessorsOwnCombinedCheckIsReportedWithoutItsName() {
        ProcessStatus s = ProcessStates.of(WORKER, LIVE, answer(503, Map.of("feed-worker", "down: kafka-group: not yet a member of group g"), null));

        assertThat(s.detail()).isEqualTo("kafka-group: not yet a member of group g");
    }

    @Test
    void withoutChecksTheProblemsDetailSaysWhy() {
        assertThat(ProcessStates.of(WORKER, LIVE, answer(503, Map.of(), "starting")).detail()).isEqualTo("starting");
        assertThat(ProcessStates.of(WORKER, LIVE, answer(500, Map.of(), null)).detail()).isEqualTo("HTTP 500");
    }

    @Test
    void liveButReadinessUnansweredIsNotReady() {
        ProcessStatus s = ProcessStates.of(WORKER, LIVE, new Outcome<>(null, "no answer within 1500 ms"));

        assertThat(s.state()).isEqualTo("not ready");
        assertThat(s.detail()).isEqualTo("readiness: no answer: no answer within 1500 ms");
        assertThat(s.checks()).isNull();
    }

    @Test
    void noAnswerIsDown() {
        ProcessStatus s = ProcessStates.of(WORKER, NO_ANSWER, NO_ANSWER);

        assertThat(s.state()).isEqualTo("down");
        assertThat(s.live()).isFalse();
        assertThat(s.ready()).isFalse();
        assertThat(s.detail()).isEqualTo("no answer at http://127.0.0.1:8094/health/live: connection refused");
    }

    @Test
    void answeringThatItIsNotLiveIsDown() {
        ProcessStatus s = ProcessStates.of(WORKER, answer(503, Map.of("process", "down: the consumer loop has not polled for 60 s"), null),
                answer(200, Map.of(), null));

        assertThat(s.state()).isEqualTo("down");
        assertThat(s.live()).isFalse();
        assertThat(s.detail()).isEqualTo("not live: process: the consumer loop has not polled for 60 s");
    }

    @Test
    void anAppWithoutAnAddressIsDownSayingWhichKeyIsMissing() {
        ProcessTarget nowhere = new ProcessTarget("x", null, null, "no admin address: configuration key 'x.admin.http' is not set");

        ProcessStatus s = ProcessStates.of(nowhere, NO_ANSWER, NO_ANSWER);

        assertThat(s.state()).isEqualTo("down");
        assertThat(s.url()).isNull();
        assertThat(s.detail()).contains("x.admin.http");
    }

    private static Outcome<HealthAnswer> answer(int status, Map<String, String> checks, String detail) {
        return new Outcome<>(new HealthAnswer(status, checks, detail), null);
    }
}
