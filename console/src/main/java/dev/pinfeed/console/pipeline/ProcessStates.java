package dev.pinfeed.console.pipeline;

import dev.pinfeed.console.pipeline.PipelineSettings.ProcessTarget;
import dev.pinfeed.console.pipeline.PipelineSnapshot.ProcessStatus;
import dev.pinfeed.console.pipeline.PipelineSources.HealthAnswer;
import dev.pinfeed.console.pipeline.Probes.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An app's state from its two health routes: live and ready → "up"; live only → "not ready", the detail naming the
 * failing checks; no answer, or an answer that it is not live (a wedged loop: only a restart helps) → "down".
 */
final class ProcessStates {

    private static final String DOWN_PREFIX = "down: ";

    private ProcessStates() {}

    static ProcessStatus of(ProcessTarget target, Outcome<HealthAnswer> live, Outcome<HealthAnswer> ready) {
        String url = target.url() == null ? null : target.url().toString();
        if (target.url() == null) return down(target, url, target.problem(), null);
        if (!live.ok()) return down(target, url, "no answer at " + target.url().resolve("health/live") + ": " + live.error(), null);
        Map<String, String> checks = ready.ok() ? ready.value().checks() : null;
        if (live.value().status() != 200) return down(target, url, "not live: " + failing(live.value(), target.name()), checks);
        if (!ready.ok()) {
            return new ProcessStatus(target.name(), target.role(), url, true, false, PipelineSnapshot.NOT_READY,
                    "readiness: no answer: " + ready.error(), null);
        }
        if (ready.value().status() == 200) {
            return new ProcessStatus(target.name(), target.role(), url, true, true, PipelineSnapshot.UP, null, checks);
        }
        return new ProcessStatus(target.name(), target.role(), url, true, false, PipelineSnapshot.NOT_READY, failing(ready.value(), target.name()),
                checks);
    }

    private static ProcessStatus down(ProcessTarget target, String url, String detail, Map<String, String> checks) {
        return new ProcessStatus(target.name(), target.role(), url, false, false, PipelineSnapshot.DOWN, detail, checks);
    }

    /**
     * The failing checks as "name: why; ...", else the answer's detail. A processor reports all its checks as one named
     * after itself ("materializer: kafka-group: ..."): its name is left out there, the page already says whose it is.
     */
    static String failing(HealthAnswer answer, String processName) {
        List<String> failing = new ArrayList<>();
        answer.checks().forEach((name, state) -> {
            if (state.equals("up")) return;
            String why = state.startsWith(DOWN_PREFIX) ? state.substring(DOWN_PREFIX.length()) : state;
            failing.add(name.equals(processName) ? why : name + ": " + why);
        });
        if (!failing.isEmpty()) return String.join("; ", failing);
        if (answer.detail() != null && !answer.detail().isBlank()) return answer.detail();
        return "HTTP " + answer.status();
    }
}
