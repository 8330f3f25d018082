package dev.pinfeed.operations.replay;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.clikit.Interruption;
import dev.pinfeed.clikit.Progress;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedworker.process.FeedWorkerMain;
import dev.pinfeed.graphprocessor.GraphProcessorMain;
import dev.pinfeed.materializer.MaterializerMain;
import dev.pinfeed.processorruntime.ConsumerLoop;
import dev.pinfeed.processorruntime.ProcessContext;
import dev.pinfeed.processorruntime.ProcessMain;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;

/**
 * {@code ./pinfeed replay VIEW --from A --to B}: only the records in {@code [A, B)} of each partition are applied
 * again, by the view's own processor code ({@code start(ProcessContext)} of its main) running in this command
 * over a {@link ProcessContext#bounded bounded context}: no consumer group, nothing committed. The view's live
 * processor is held stopped meanwhile (so the two never apply at once) and its groups keep their offsets: after
 * the start again it goes on from where it was. The Kafka Streams fan-out has no such mode (its application replays
 * through the streams reset, to the end of its input).
 */
final class BoundedReplay {

    private final KafkaGroups kafka;
    private final Processors processors;
    private final Replay.Verifier verifier;
    private final PinfeedConfig config;
    private final Clock clock;
    private final PrintWriter out;
    private final PrintWriter progressOut;
    private final Progress.Mode mode;
    private final Interruption interruption;
    private volatile String howToResume = "";

    BoundedReplay(KafkaGroups kafka, Processors processors, Replay.Verifier verifier, PinfeedConfig config, Clock clock, PrintWriter out,
                  PrintWriter progressOut, Progress.Mode mode, Interruption interruption) {
        this.kafka = kafka;
        this.processors = processors;
        this.verifier = verifier;
        this.config = config;
        this.clock = clock;
        this.out = out;
        this.progressOut = progressOut;
        this.mode = mode;
        this.interruption = interruption;
    }

    /** The process start-up of each view that has a bounded mode. */
    private static ProcessMain.Body bodyOf(ReplayView view) {
        return switch (view.name()) {
            case "graph" -> GraphProcessorMain::start;
            case "canonical" -> MaterializerMain::start;
            case "pools" -> FeedWorkerMain::start;
            default -> throw new IllegalArgumentException("--to is not supported for " + view.name()
                    + ": " + (view.streams().isPresent() ? "a Kafka Streams application" : "this view")
                    + " replays through its reset to the end of its input (leave out --to)");
        };
    }

    String howToResume() {
        return howToResume.isEmpty() ? "run the same replay again: applying a record twice changes nothing" : howToResume;
    }

    int run(ReplayView view, Position from, Position to, boolean dryRun, boolean verify) throws Exception {
        ProcessMain.Body body = bodyOf(view);
        List<PartitionPlan> plan = new ReplayPlanner(kafka).plan(view, from, Optional.of(to));
        PlanReport.print(out, mode, view, from, plan, dryRun);
        if (dryRun) return 0;
        Map<TopicPartition, ConsumerLoop.Range> ranges = new LinkedHashMap<>();
        for (PartitionPlan p : plan) {
            ranges.merge(new TopicPartition(p.topic(), p.partition()), new ConsumerLoop.Range(p.target(), p.end()), (a, b) -> a);
        }
        long total = ranges.values().stream().mapToLong(ConsumerLoop.Range::size).sum();
        boolean complete;
        ProcessorHold hold = new ProcessorHold(view, processors, kafka, false, clock, this::say, interruption::requested);
        try (hold) {
            if (!hold.stop("replay " + view.name() + " of a range (pid " + ProcessHandle.current().pid() + "); its groups keep their offsets")) {
                howToResume = "interrupted before anything was applied; " + view.app() + (hold.wasRunning() ? " runs again" : " stays as it was");
                return Cli.INTERRUPTED;
            }
            complete = applyRange(view, body, ranges, total);
        }
        boolean wasRunning = hold.wasRunning();
        if (!complete) {
            howToResume = "the range was applied in part; run the same replay again (applying a record twice changes nothing); "
                    + view.app() + (wasRunning ? " runs again" : " stays as it was");
            return Cli.INTERRUPTED;
        }
        if (!verify) return 0;
        return verifier.afterReplay(view, this::say);
    }

    private boolean applyRange(ReplayView view, ProcessMain.Body body, Map<TopicPartition, ConsumerLoop.Range> ranges, long total) throws Exception {
        ProcessContext ctx = ProcessContext.bounded(view.app() + "-replay", config, clock, ranges);
        try (ctx; Progress progress = Progress.start(progressOut, mode, "replay " + view.name(), total, "records", clock)) {
            body.start(ctx);
            ctx.started();
            while (true) {
                List<ConsumerLoop> loops = ctx.loops();
                long done = loops.stream().mapToLong(ConsumerLoop::boundedSettled).sum();
                progress.set(done);
                if (loops.stream().allMatch(ConsumerLoop::finished)) {
                    if (!loops.stream().allMatch(ConsumerLoop::rangesSettled)) {
                        throw new IllegalStateException(view.app() + " stopped before the end of the range (its error is logged above);"
                                + " run the same replay again once the cause is fixed (applying a record twice changes nothing)");
                    }
                    progress.done("applied");
                    return true;
                }
                if (interruption.requested()) return false;
                progress.tick();
                Thread.sleep(200);
            }
        }
    }

    private void say(String line) {
        progressOut.println("[pinfeed] " + line);
        progressOut.flush();
    }
}
