package dev.pinfeed.operations.verify.graph;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.clikit.Progress;
import dev.pinfeed.followergraph.audit.Findings;
import dev.pinfeed.followergraph.audit.GraphAudit;
import dev.pinfeed.followergraph.audit.GraphOracle;
import dev.pinfeed.followergraph.audit.RepairPlan;
import dev.pinfeed.followergraph.sharded.GraphKeyspace;
import dev.pinfeed.graphprocessor.GraphRebuild;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.kafka.common.TopicPartition;

/**
 * {@code ./pinfeed verify graph [--repair]}: the follower graph in Redis against the follows and boards topics.
 * <ol>
 *   <li>The oracle: every record of the topics up to their end offsets as of the start, applied by the
 *       processor's own handler to the store's own write path over process memory ({@link GraphOracle}).</li>
 *   <li>A scan of every instance: each graph key under the prefix compared with the oracle's
 *       ({@link GraphAudit}).</li>
 *   <li>The rule for events newer than the oracle: the processor keeps applying while the scan reads. A
 *       difference is reported only if it persists through a re-check: wait until the processor's consumer
 *       group has committed past the topics' end offsets read at that moment (every event up to them applied),
 *       read the differing keys again, then catch the oracle up to the end offsets read after that read (so
 *       the oracle knows every event the values read can reflect), and compare again; up to {@value #ROUNDS}
 *       rounds while differences remain and events keep arriving. A processor that does not get there within
 *       the wait is reported with its lag: what remains may then be events it has not applied yet.</li>
 *   <li>With repair: the plan of {@link RepairPlan} (pairs recomputed through the write protocol, keys fixed
 *       member by member, each only where the key still holds what the last read saw), then the whole
 *       verification again, whose result is the exit code.</li>
 * </ol>
 * Exit 0 when the graph agrees with the topics, 1 when not, {@value Cli#INTERRUPTED} when interrupted.
 */
final class GraphVerification {

    static final int ROUNDS = 3;

    /** What the command line asked for. */
    record Settings(boolean repair, boolean json, Duration processorWait) {}

    /** A pass's findings once settled against the processor: the re-checks it took and the processor's lag at the end. */
    record Settled(Findings findings, int rechecks, long processorLag) {}

    /** Told at the start of each phase (scanning, re-checking, repairing): the integration test's hook, a no-op otherwise. */
    interface Phases {
        default void starting(String phase) {}
    }

    private final Settings settings;
    private final GraphTopics topics;
    private final GraphKeyspace live;
    private final GraphReport report;
    private final PrintWriter progressOut;
    private final BooleanSupplier stop;
    private final Phases phases;
    private final Clock clock;
    private final GraphOracle oracle;
    private final EventTally events = new EventTally();
    private volatile String resumeHint = "nothing was changed; run ./pinfeed verify graph again";

    GraphVerification(Settings settings, GraphTopics topics, GraphKeyspace live, GraphReport report, PrintWriter progressOut,
                      BooleanSupplier stop, Phases phases, Clock clock) {
        this.settings = settings;
        this.topics = topics;
        this.live = live;
        this.report = report;
        this.progressOut = progressOut;
        this.stop = stop;
        this.phases = phases;
        this.clock = clock;
        this.oracle = new GraphOracle(live.keys().prefix());
    }

    /** What to tell an operator who interrupted the command now. */
    String resumeHint() {
        return resumeHint;
    }

    int run() throws InterruptedException {
        try {
            if (!catchUp("reading " + String.join(", ", topics.topics()))) return Cli.INTERRUPTED;
            GraphAudit audit = new GraphAudit(oracle, live);
            Settled first = verify(audit);
            report.verified(first, events);
            if (!settings.repair() || first.findings().clean()) return first.findings().clean() ? 0 : 1;

            RepairPlan plan = audit.plan(first.findings());
            phases.starting("repairing");
            resumeHint = "the repair stopped between two of its steps (each is whole); run ./pinfeed verify graph --repair again to finish it";
            RepairPlan.Outcome outcome;
            try (Progress progress = progress("repairing", plan.size(), "steps")) {
                outcome = audit.repair(plan, new GraphAudit.Listener() {
                    @Override
                    public void repaired() {
                        progress.advance(1);
                        progress.tick();
                    }

                    @Override
                    public boolean stopRequested() {
                        return stop.getAsBoolean();
                    }
                });
                if (!outcome.stopped()) progress.done(outcome.pairs() + " pairs, " + outcome.keys() + " keys");
            }
            report.repaired(plan, outcome);
            if (outcome.stopped()) return Cli.INTERRUPTED;
            resumeHint = "the repair is done; run ./pinfeed verify graph to check it";
            Settled after = verify(audit);
            report.verifiedAfterRepair(after, events);
            return after.findings().clean() ? 0 : 1;
        } catch (GraphAudit.StoppedException | Stopped e) {
            return Cli.INTERRUPTED;
        }
    }

    /** A full scan, settled against the processor. */
    private Settled verify(GraphAudit audit) throws InterruptedException {
        phases.starting("scanning");
        Findings found;
        try (ScanProgress scan = new ScanProgress()) {
            found = audit.scan(scan);
        }
        int rounds = 0;
        long lag = 0;
        while (!found.clean() && rounds < ROUNDS) {
            phases.starting("re-checking");
            Map<TopicPartition, Long> target = topics.endOffsets();
            lag = awaitProcessor(target);
            GraphAudit.Observation seen = audit.observe(found);
            long known = events.records;
            if (!catchUp("catching up with " + String.join(", ", topics.topics()))) throw new Stopped();
            found = audit.recheck(seen);
            rounds++;
            if (lag > 0) break; // the processor is behind: another round would wait for it again in vain
            if (events.records == known) break; // nothing published since: the processor had applied all the oracle knows
        }
        return new Settled(found, rounds, lag);
    }

    /** One progress line per instance scanned: the keys SCAN walked of the instance's total, and the graph's among them. */
    private final class ScanProgress implements GraphAudit.Listener, AutoCloseable {
        private Progress progress;
        private long total;
        private long graphKeys;

        @Override
        public void scanning(String instance, long keys) {
            finish();
            total = keys;
            progress = progress("scanning " + instance, keys, "keys");
        }

        @Override
        public void scanned(String instance, long walked, long graph) {
            progress.set(Math.min(total, progress.done() + walked)); // SCAN's walk is approximate: never past the total
            graphKeys += graph;
            progress.tick();
        }

        @Override
        public boolean stopRequested() {
            return stop.getAsBoolean();
        }

        private void finish() {
            if (progress == null) return;
            progress.set(total);
            progress.done(graphKeys + " graph keys");
            progress.close();
            progress = null;
            graphKeys = 0;
        }

        @Override
        public void close() {
            if (stop.getAsBoolean() && progress != null) progress.close();
            else finish();
        }
    }

    /** Applies the records published since the oracle's offsets, up to the end offsets now; false when interrupted. */
    private boolean catchUp(String task) throws InterruptedException {
        Map<TopicPartition, Long> end = topics.endOffsets();
        long total = 0;
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) total += Math.max(0, e.getValue() - events.offsets.getOrDefault(e.getKey(), 0L));
        if (total == 0) return true;
        GraphRebuild.Result result;
        try (Progress progress = progress(task, total, "records")) {
            result = topics.replay(events.offsets, end, oracle, new GraphRebuild.Listener() {
                @Override
                public void read(long records) {
                    progress.advance(records);
                    progress.tick();
                }

                @Override
                public boolean stopRequested() {
                    return stop.getAsBoolean();
                }
            });
            if (!result.stopped()) progress.done(result.applied() + " applied");
        }
        events.add(result);
        return !result.stopped();
    }

    /**
     * Waits (at most the configured wait) until the processor's group has committed at least {@code target}
     * on every partition; returns the records it still had to go (0 = there).
     */
    private long awaitProcessor(Map<TopicPartition, Long> target) throws InterruptedException {
        long deadline = clock.millis() + settings.processorWait().toMillis();
        long lag = lag(target, topics.committed());
        if (lag == 0) return 0;
        try (Progress progress = progress("waiting for the graph processor (group " + topics.group() + ")", lag, "records")) {
            while (lag > 0 && clock.millis() < deadline) {
                if (stop.getAsBoolean()) throw new Stopped();
                Thread.sleep(200);
                long now = lag(target, topics.committed());
                progress.advance(lag - now);
                progress.tick();
                lag = now;
            }
            progress.done(lag == 0 ? "there" : lag + " records to go");
        }
        return lag;
    }

    static long lag(Map<TopicPartition, Long> target, Map<TopicPartition, Long> committed) {
        long lag = 0;
        for (Map.Entry<TopicPartition, Long> e : target.entrySet()) {
            lag += Math.max(0, e.getValue() - committed.getOrDefault(e.getKey(), 0L));
        }
        return lag;
    }

    private Progress progress(String task, long total, String unit) {
        return Progress.start(progressOut, Progress.mode(settings.json()), task, total, unit, clock);
    }

    /** Asked to stop between two steps of a wait or a catch-up. */
    private static final class Stopped extends RuntimeException {
        Stopped() {
            super("stopped on request", null, false, false);
        }
    }

    /** The records the oracle was built from: totals over every replay, and the offsets reached. */
    static final class EventTally {
        long records;
        long applied;
        long ignored;
        final Map<String, Long> rejected = new java.util.TreeMap<>();
        Map<TopicPartition, Long> offsets = Map.of();

        void add(GraphRebuild.Result r) {
            records += r.records();
            applied += r.applied();
            ignored += r.ignored();
            r.rejected().forEach((reason, n) -> rejected.merge(reason, n, Long::sum));
            offsets = Map.copyOf(r.reached());
        }
    }
}
