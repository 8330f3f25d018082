package dev.pinfeed.console;

import dev.pinfeed.console.pipeline.PipelineMonitor;
import dev.pinfeed.processorruntime.ProcessContext;
import java.time.Instant;
import java.util.Map;

/** Wires the pipeline monitor of the console process over its stores (composition root). */
final class PipelineMonitors {

    private PipelineMonitors() {}

    static PipelineMonitor start(ProcessContext ctx) {
        return new PipelineMonitor() {
            @Override public Object snapshot() { return Map.of("sampledAt", Instant.now().toString()); }
            @Override public void close() { }
        };
    }
}
