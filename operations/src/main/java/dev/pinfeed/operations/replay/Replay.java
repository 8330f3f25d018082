package dev.pinfeed.operations.replay;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.clikit.Interruption;
import dev.pinfeed.clikit.Progress;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;

/**
 * {@code ./pinfeed replay VIEW --from ...}: the view's processor stopped, its consumer groups moved back with
 * Kafka's Admin API (for the Kafka Streams fan-out also what Kafka's streams reset tool does: its internal
 * topics deleted and its local state wiped), the processor started again, its catching up shown until it
 * passed the log end the replay began at, and the view verified. Every sink is idempotent, so replaying
 * records already applied changes nothing and records never applied are applied: verify finds 0 differences.
 * A replay never moves a group forward (that would skip records).
 *
 * <p>Ctrl-C: before the offsets moved, the processor is started again and nothing changed; after, the processor
 * is (re)started and replays by itself; the command says how to follow it.
 */
public final class Replay {

    /** What to replay. {@code force}: remove static members left in the groups without waiting for their sessions to expire. */
    public record Request(ReplayView view, Position from, boolean dryRun, boolean verify, boolean force) {}

    /** Runs a {@code ./pinfeed verify} command line (its arguments after {@code verify}); returns its exit code. */
    @FunctionalInterface
    public interface Verifier {
        int verify(List<String> args);

        /**
         * The check that ends a replay. A replay re-applies the topics but does not undo what they never wrote, nor
         * (graph) pull back a surviving side's bookkeeping past a lost one's: on differences, name the fix.
         */
        default int afterReplay(ReplayView view, Consumer<String> say) {
            String command = "./pinfeed verify " + String.join(" ", view.verify());
            say.accept("verifying: " + command);
            int exit = verify(view.verify());
            if (exit == 1) say.accept("the replay left the differences above; " + command + " --repair writes their fix");
            return exit;
        }
    }

    private static final Duration POLL = Duration.ofMillis(500);
    /** Catching up with no progress this long: say so (the processor may be down or failing). */
    private static final Duration STALL = Duration.ofSeconds(60);

    private final KafkaGroups kafka;
    private final Processors processors;
    private final Verifier verifier;
    private final Clock clock;
    private final PrintWriter out;
    private final PrintWriter progressOut;
    private final Progress.Mode mode;
    private final Interruption interruption;

    Replay(KafkaGroups kafka, Processors processors, Verifier verifier, Clock clock, PrintWriter out, PrintWriter progressOut,
           Progress.Mode mode, Interruption interruption) {
        this.kafka = kafka;
        this.processors = processors;
        this.verifier = verifier;
        this.clock = clock;
        this.out = out;
        this.progressOut = progressOut;
        this.mode = mode;
        this.interruption = interruption;
    }

    /** The plan of every group of the view, as Kafka stands now. */
    List<PartitionPlan> plan(ReplayView view, Position from) {
        return new ReplayPlanner(kafka).plan(view, from, Optional.empty());
    }

    /** Runs the replay; returns the exit code (the verification's when it ran). */
    int run(Request r) throws Exception {
        ReplayView view = r.view();
        List<PartitionPlan> plan = plan(view, r.from());
        if (r.dryRun()) {
            PlanReport.print(out, mode, view, r.from(), plan, true);
            streamsReset(view, true);
            return 0;
        }
        ProcessorHold hold = new ProcessorHold(view, processors, kafka, r.force(), clock, this::say, interruption::requested);
        try (hold) {
            if (!hold.stop("replay " + view.name() + " from " + r.from() + " (pid " + ProcessHandle.current().pid() + ")")) {
                return interrupted("interrupted before anything changed; " + view.app() + (hold.wasRunning() ? " runs again" : " stays as it was"));
            }
            // After the stop: the processor committed what it applied on its way out.
            plan = plan(view, r.from());
            PlanReport.print(out, mode, view, r.from(), plan, false);
            streamsReset(view, false);
            for (ReplayView.Group g : view.groups()) {
                Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
                plan.stream().filter(p -> p.group().equals(g.id()) && p.moves())
                        .forEach(p -> offsets.put(new TopicPartition(p.topic(), p.partition()), p.target()));
                if (!offsets.isEmpty()) kafka.moveOffsets(g.id(), offsets);
            }
            say("moved " + view.groupIds() + " to " + r.from());
        } // starts the processor again (if it ran), after the move or after a failure before it
        boolean wasRunning = hold.wasRunning();
        if (!wasRunning) {
            say(view.app() + " was not running: it replays from these offsets when it starts (./pinfeed start " + view.app() + ")");
            return 0;
        }
        if (!awaitCaughtUp(view, plan)) {
            return interrupted(view.app() + " goes on replaying by itself. Follow it with ./pinfeed kafka consumer-groups --describe --group "
                    + view.groupIds().get(0) + "; check it with ./pinfeed verify " + String.join(" ", view.verify()) + " once it caught up.");
        }
        if (!r.verify()) return 0;
        return verifier.afterReplay(view, this::say);
    }

    private int interrupted(String message) {
        interruptionMessage = message;
        return Cli.INTERRUPTED;
    }

    private volatile String interruptionMessage = "";

    /** What to tell the operator after a Ctrl-C, as of now. */
    String howToResume() {
        return interruptionMessage.isEmpty() ? "run the replay again: moving offsets is idempotent" : interruptionMessage;
    }

    /** Waits until every group committed past the log end it had when the replay began; progress meanwhile. */
    private boolean awaitCaughtUp(ReplayView view, List<PartitionPlan> plan) throws InterruptedException {
        long total = plan.stream().mapToLong(PartitionPlan::records).sum();
        try (Progress progress = Progress.start(progressOut, mode, "replay " + view.name(), total, "records", clock)) {
            long lastDone = -1;
            long lastChange = clock.millis();
            while (true) {
                if (interruption.requested()) return false;
                long done = 0;
                boolean caughtUp = true;
                Map<String, Map<TopicPartition, Long>> committed = new HashMap<>();
                for (PartitionPlan p : plan) {
                    long c = committed.computeIfAbsent(p.group(), kafka::committed).getOrDefault(new TopicPartition(p.topic(), p.partition()), -1L);
                    done += Math.max(0, Math.min(c, p.end()) - p.target());
                    if (c < p.end()) caughtUp = false;
                }
                progress.set(done);
                if (caughtUp) {
                    progress.done("caught up");
                    return true;
                }
                progress.tick();
                if (done != lastDone) {
                    lastDone = done;
                    lastChange = clock.millis();
                } else if (clock.millis() - lastChange > STALL.toMillis()) {
                    lastChange = clock.millis();
                    String running = processors.running(view.app()).map(r -> r ? "it runs" : "it is NOT running").orElse("see its logs");
                    progress.note("no progress for " + STALL.toSeconds() + " s (" + view.app() + ": " + running + ")");
                }
                Thread.sleep(POLL.toMillis());
            }
        }
    }

    /**
     * What Kafka's streams reset tool does besides the input offsets: the application's internal topics deleted
     * (Kafka Streams creates them again, empty, at its start) and its local state wiped, so the fan-out's job store
     * starts empty instead of resuming jobs from before the replay.
     */
    private void streamsReset(ReplayView view, boolean dryRun) {
        if (view.streams().isEmpty()) return;
        String appId = view.streams().get();
        List<String> internal = kafka.internalTopics(appId);
        Optional<Path> local = processors.localStateDir(view.app());
        Optional<Path> state = local.or(() -> view.stateDir()).map(d -> d.resolve(appId));
        if (dryRun) {
            out.println("would delete the internal topics of " + appId + ": " + (internal.isEmpty() ? "none" : String.join(", ", internal)));
            out.println("would wipe its local state " + state.map(Path::toString).orElse("(on every instance)"));
            return;
        }
        kafka.deleteTopics(internal);
        say("deleted the internal topics of " + appId + ": " + (internal.isEmpty() ? "none" : String.join(", ", internal)));
        if (local.isPresent()) {
            deleteTree(state.get());
            say("wiped its local state " + state.get());
        } else {
            say("wipe the local state of every " + view.app() + " instance before starting it: " + state.map(Path::toString).orElse("fanout.state-dir")
                    + " (the application's directory under fanout.state-dir)");
        }
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) return;
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir + ": " + e.getMessage(), e);
        }
    }

    private void say(String line) {
        if (mode == Progress.Mode.JSON) {
            out.println("{\"step\":" + Progress.quote(line) + "}");
            out.flush();
        } else {
            progressOut.println("[pinfeed] " + line);
            progressOut.flush();
        }
    }

    static String percent(long part, long whole) {
        return whole == 0 ? "-" : String.format(Locale.ROOT, "%.1f %%", 100.0 * part / whole);
    }
}
