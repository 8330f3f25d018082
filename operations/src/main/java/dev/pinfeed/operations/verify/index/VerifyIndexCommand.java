package dev.pinfeed.operations.verify.index;

import dev.pinfeed.canonicalstore.UsernameShards;
import dev.pinfeed.clikit.Cli;
import dev.pinfeed.clikit.Interruption;
import dev.pinfeed.clikit.Progress;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.materializer.MaterializerTopics;
import dev.pinfeed.mysqlshards.MysqlShardConfig;
import dev.pinfeed.mysqlshards.ShardDataSources;
import dev.pinfeed.mysqlshards.query.ShardedDb;
import dev.pinfeed.operations.verify.VerifyCommand;
import dev.pinfeed.operations.verify.index.IndexCheck.Created;
import dev.pinfeed.operations.verify.index.IndexCheck.Scope;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.curator.framework.CuratorFramework;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code ./pinfeed verify index [--repair]}: the cross-shard username index against the user rows
 * ({@link IndexCheck}); with {@code --repair}, the fixes ({@link IndexRepair}), then the check again,
 * whose result is the exit code.
 */
@Command(name = "index", mixinStandardHelpOptions = true,
        description = {"Reads every claim of the username index (shards 0-4095) and every user row's username, and prints",
                "orphan, missing, wrong, misplaced and shared claims. Exit 0 when there is none, 1 when there are."})
public final class VerifyIndexCommand implements Callable<Integer> {

    /** The exit code of a command stopped by Ctrl-C (128 + SIGINT). */
    /** How long Ctrl-C waits for the current batch to end. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);

    @ParentCommand VerifyCommand verify;
    @Spec CommandSpec spec;

    @Option(names = "--repair", description = "write the fixes, then verify again and exit by that") boolean repair;
    @Option(names = "--max-printed", defaultValue = "50", description = "differences printed (default ${DEFAULT-VALUE})") int maxPrinted;
    @Option(names = "--json", description = "progress and results as JSON lines on stdout") boolean json;
    @Option(names = "--usernames-prefix", description = "only usernames starting with this (default: all)") String prefix;
    @Option(names = "--users-topic", description = "the topic UserCreated events are published to (default: materializer.topic.users, else pinfeed.users.v1)")
    String usersTopic;
    @Option(names = "--settle-seconds", defaultValue = "60",
            description = "age a claim must have before a missing user row makes it an orphan (default ${DEFAULT-VALUE})") int settleSeconds;

    private final Clock clock = Clock.systemUTC();
    private volatile Phase phase = Phase.CHECK;

    /** Where a Ctrl-C found the command, for its resume hint. */
    private enum Phase { CHECK, REPAIR, RECHECK }

    @Override
    public Integer call() throws Exception {
        if (maxPrinted < 0) throw Cli.usage(spec, "--max-printed must be >= 0");
        if (settleSeconds < 0) throw Cli.usage(spec, "--settle-seconds must be >= 0");
        Scope scope;
        try {
            scope = new Scope(prefix);
        } catch (IllegalArgumentException e) {
            throw Cli.usage(spec, e.getMessage());
        }
        PinfeedConfig config = verify.config();
        UsersTopic topic = new UsersTopic(config, usersTopic != null ? usersTopic : MaterializerTopics.from(config).users());
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (Interruption stop = Interruption.install(err, STOP_GRACE, this::howToResume);
             CuratorFramework zk = CuratorClients.connected(config, 20);
             MysqlShardConfig shardMap = MysqlShardConfig.watch(zk, config);
             ShardDataSources sources = ShardDataSources.from(config, shardMap, "pinfeed-verify-index", 4, Map.of());
             ShardedDb db = new ShardedDb(sources)) {
            if (db.shardCount() < UsernameShards.INDEX_SHARDS) {
                throw new IllegalStateException("the username index needs shards 0-" + (UsernameShards.INDEX_SHARDS - 1)
                        + "; the shard map has " + db.shardCount());
            }
            Checker checker = new Checker(new IndexScan(db, clock), topic, scope, stop, json ? out : err);
            Checked first = checker.check(null);
            if (first == null) return Cli.INTERRUPTED;
            print(out, "verify", checker.header, first);
            if (!repair) return first.report.clean() ? Cli.OK : Cli.FAILED;
            List<IndexFix> fixes = first.report.fixes();
            if (fixes.isEmpty()) {
                if (!json) out.println("nothing to repair" + (first.report.clean() ? "" : ": no difference above can be repaired automatically"));
                return first.report.clean() ? Cli.OK : Cli.FAILED;
            }
            phase = Phase.REPAIR;
            Set<Long> recheck = new LinkedHashSet<>();
            for (IndexFix f : fixes) if (f.recheckUserId() != 0) recheck.add(f.recheckUserId());
            IndexRepair.Outcome outcome = new IndexRepair(db).apply(fixes, checker.scan.usernamesOf(recheck), stop::requested);
            if (json) out.println(IndexReportFormat.repairJson(outcome));
            else IndexReportFormat.repairText(outcome).forEach(out::println);
            out.flush();
            if (outcome.stopped()) return Cli.INTERRUPTED;
            phase = Phase.RECHECK;
            Checked second = checker.check(first);
            if (second == null) return Cli.INTERRUPTED;
            print(out, "after-repair", checker.header, second);
            return second.report.clean() ? Cli.OK : Cli.FAILED;
        }
    }

    private void print(PrintWriter out, String check, IndexReportFormat.Header header, Checked c) {
        if (json) out.println(IndexReportFormat.json(check, header, c.report(), c.strayUserRows(), maxPrinted));
        else IndexReportFormat.text(header, c.report(), c.strayUserRows(), maxPrinted).forEach(out::println);
        out.flush();
    }

    private String howToResume() {
        String again = "./pinfeed " + String.join(" ", spec.root().commandLine().getParseResult().originalArgs());
        return switch (phase) {
            case CHECK -> "Nothing was written; run " + again + " again.";
            case REPAIR -> "The fixes written so far stay (each is conditional and idempotent); run " + again + " again.";
            case RECHECK -> "The repair is written; run " + again.replace(" --repair", "") + " to check it.";
        };
    }

    /** One check's result; {@code unbacked} and {@code claimsReadAt}: for the settle time of a later check. */
    private record Checked(IndexReport report, int strayUserRows, Set<Long> unbacked, Instant claimsReadAt) {}

    /** Scan, the users topic for claims without their row, and the comparison, with progress. */
    private final class Checker {
        final IndexScan scan;
        final UsersTopic topic;
        final Scope scope;
        final Interruption stop;
        final PrintWriter progressOut;
        final IndexReportFormat.Header header;

        Checker(IndexScan scan, UsersTopic topic, Scope scope, Interruption stop, PrintWriter progressOut) {
            this.scan = scan;
            this.topic = topic;
            this.scope = scope;
            this.stop = stop;
            this.progressOut = progressOut;
            this.header = new IndexReportFormat.Header(scope, scan.indexShards(), scan.userShards(), topic.name());
        }

        /** The check; null when stopped. {@code earlier}: a previous check, whose unbacked claims have already settled since its scan. */
        Checked check(Checked earlier) throws InterruptedException {
            IndexScan.Snapshot s;
            try (Progress progress = progress(IndexReportFormat.TASK, scan.userShards() + scan.indexShards(), "shards")) {
                s = scan.read(scope, progress, stop::requested);
                if (s == null) return null;
                progress.done(s.users().size() + " user rows, " + s.claims().size() + " claims");
            }
            Set<Long> unbacked = IndexCheck.unbackedUserIds(s.claims(), s.users(), scope, UsernameShards::shardOf);
            List<Created> published = List.of();
            if (!unbacked.isEmpty()) {
                Instant since = earlier != null && earlier.unbacked().containsAll(unbacked) ? earlier.claimsReadAt() : s.claimsReadAt();
                Duration wait = IndexCheck.settleWait(since, clock.instant(), Duration.ofSeconds(settleSeconds));
                if (!wait.isZero()) {
                    // A claim read just now may belong to a publish still in flight: its UserCreated may not be in the log yet.
                    try (Progress settling = progress(IndexReportFormat.TASK + ": settling " + unbacked.size()
                            + " claims without their user row (--settle-seconds)", wait.toSeconds(), "s")) {
                        if (!sleep(wait, settling)) return null;
                        settling.done("");
                    }
                }
                try (Progress reading = progress(IndexReportFormat.TASK + ": looking for " + unbacked.size() + " users in " + topic.name(),
                        -1, "records")) {
                    published = topic.created(unbacked, () -> reading.advance(1));
                    reading.done(published.size() + " found");
                }
            }
            IndexReport report = IndexCheck.compare(s.claims(), s.users(), published, scope, UsernameShards::shardOf);
            return new Checked(report, s.strayUserRows(), unbacked, s.claimsReadAt());
        }

        private Progress progress(String task, long total, String unit) {
            return Progress.start(progressOut, Progress.mode(json), task, total, unit, clock).startTicker();
        }

        /** Sleeps {@code d}, showing the seconds passed and waking to honour a stop request; false when stopped. */
        private boolean sleep(Duration d, Progress progress) throws InterruptedException {
            Instant start = clock.instant();
            Instant end = start.plus(d);
            while (clock.instant().isBefore(end)) {
                if (stop.requested()) return false;
                Thread.sleep(Math.min(200, Math.max(1, Duration.between(clock.instant(), end).toMillis())));
                progress.set(Duration.between(start, clock.instant()).toSeconds());
            }
            return !stop.requested();
        }
    }
}
