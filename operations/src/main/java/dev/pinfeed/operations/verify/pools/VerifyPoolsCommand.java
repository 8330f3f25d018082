package dev.pinfeed.operations.verify.pools;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.clikit.Interruption;
import dev.pinfeed.clikit.Progress;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.feedstore.PoolRows;
import dev.pinfeed.feedworker.process.FeedWorkerMain;
import dev.pinfeed.operations.feed.HomeFeedStores;
import dev.pinfeed.operations.verify.VerifyCommand;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code ./pinfeed verify pools}: users' HBase pools against the fan-out, the graph and the canonical store ({@link PoolVerifier}). */
@Command(name = "pools", mixinStandardHelpOptions = true,
        description = {"Checks users' pools (HBase primary): whole entries, only pins they receive, every applied delivery still",
                "held (or shown, trimmed, dropped). Exit 0 when there is no difference (after --repair: none left), 1 when there are."})
public final class VerifyPoolsCommand implements Callable<Integer> {

    /** Users read from the pools table per scan with --all. */
    private static final int PAGE = 200;

    @ParentCommand VerifyCommand verify;
    @Spec CommandSpec spec;

    @Option(names = {"--user", "--users"}, split = ",", paramLabel = "ID", description = "the users to check") List<Long> users;
    @Option(names = "--all", description = "every user with a pool row or a delivery, in id order") boolean all;
    @Option(names = "--after", paramLabel = "ID", description = "with --all: start after this user (resume)") Long after;
    @Option(names = "--repair", description = "fix what differs, then check those users again") boolean repair;
    @Option(names = "--max-printed", defaultValue = "50", description = "differences printed per kind (default ${DEFAULT-VALUE})") int maxPrinted;
    @Option(names = "--json", description = "progress and the result as JSON lines on stdout") boolean json;
    @Option(names = "--fanout-topic", paramLabel = "T", description = "default: the first of feed.worker.topics, else pinfeed.fanout.v1") String fanoutTopic;
    @Option(names = "--worker-group", paramLabel = "G", description = "default: feed.worker.group, else pinfeed-feed-worker") String workerGroup;

    @Override
    public Integer call() throws Exception {
        if ((users == null || users.isEmpty()) == !all) throw Cli.usage(spec, "say which users: --users ID,... or --all");
        if (after != null && !all) throw Cli.usage(spec, "--after goes with --all");
        if (maxPrinted < 0) throw Cli.usage(spec, "--max-printed must be >= 0");
        PinfeedConfig config = verify.config();
        String topic = fanoutTopic != null ? fanoutTopic : config.list("feed.worker.topics").stream().findFirst().orElse(EventTopics.FANOUT);
        String group = workerGroup != null ? workerGroup : FeedWorkerMain.group(config);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter progressOut = json ? out : spec.commandLine().getErr();
        Progress.Mode mode = Progress.mode(json);
        long start = after == null ? 0 : after;
        Set<Long> chosen = all ? null : new TreeSet<>(users);

        Deliveries deliveries = new Deliveries(u -> chosen == null ? u > start : chosen.contains(u));
        PoolsReport report = new PoolsReport(maxPrinted);
        // Outermost: on Ctrl-C the JVM exits once this closes, so the report is printed before.
        try (Interruption interruption = Interruption.install(spec.commandLine().getErr(), Duration.ofSeconds(30), () -> resumeHint(report))) {
            FanoutHistory.Summary history;
            try (Progress reading = Progress.start(progressOut, mode, "reading " + topic, -1, "records", Clock.systemUTC()).startTicker()) {
                history = FanoutHistory.read(config, topic, group, deliveries, () -> reading.advance(1));
                reading.done(deliveries.count() + " deliveries to the users checked");
            }
            PoolCheckSettings settings = PoolCheckSettings.from(config);
            try (HomeFeedStores stores = HomeFeedStores.open(config, repair);
                 Progress progress = Progress.start(progressOut, mode, repair ? "verify and repair pools" : "verify pools",
                         chosen == null ? -1 : chosen.size(), "users", Clock.systemUTC()).startTicker()) {
                PoolVerifier verifier = new PoolVerifier(stores.feeds(), stores.canonical(), stores.graph(), settings, Clock.systemUTC());
                PoolRepairer repairer = new PoolRepairer(stores.poolWrites(), stores.pools(), settings);
                Iterator<PoolRows.UserRows> each = chosen == null ? new UsersInOrder(stores.pools(), deliveries.receivers(), start, PAGE)
                        : chosen.stream().map(stores.pools()::rows).iterator();
                while (!interruption.requested() && each.hasNext()) {
                    PoolRows.UserRows rows = each.next();
                    try {
                        OptionalLong rebuiltAt = stores.pools().rebuiltAt(rows.userId());
                        UserCheck check = verifier.check(rows, deliveries.to(rows.userId()), rebuiltAt);
                        UserCheck afterRepair = null;
                        if (repair && check.repairable()) {
                            repairer.repair(check);
                            afterRepair = verifier.check(stores.pools().rows(rows.userId()), deliveries.to(rows.userId()), rebuiltAt);
                        }
                        report.add(check, afterRepair);
                    } catch (RuntimeException e) {
                        throw new IllegalStateException("stopped at user " + rows.userId() + ": " + Cli.firstLine(e) + "; " + resumeHint(report), e);
                    }
                    progress.advance(1);
                }
                progress.done(report.found.total() + " differences");
            }
            print(out, history, report);
            if (interruption.requested()) return Cli.INTERRUPTED;
        }
        long left = repair ? report.afterRepair.total() : report.found.total();
        return left == 0 ? Cli.OK : Cli.FAILED;
    }

    private String resumeHint(PoolsReport report) {
        if (!all) return "checked " + report.users + " of the users given; run the command again for the rest.";
        long from = report.users == 0 && after != null ? after : report.lastUser;
        return "checked " + report.users + " users; resume with: ./pinfeed verify pools --all --after " + from
                + (repair ? " --repair" : "");
    }

    private void print(PrintWriter out, FanoutHistory.Summary history, PoolsReport report) {
        if (json) {
            out.println("{\"task\":\"verify pools\",\"topics\":" + history.groups().keySet().stream().map(Progress::quote)
                    .collect(Collectors.joining(",", "[", "]")) + ",\"chunkRecords\":" + history.records()
                    + ",\"notYetApplied\":" + history.notYetApplied() + ",\"users\":" + report.users + ",\"lastUser\":" + report.lastUser
                    + ",\"counts\":" + report.countsJson() + ",\"differences\":" + report.found.json()
                    + (repair ? ",\"usersRepaired\":" + report.usersRepaired + ",\"afterRepair\":" + report.afterRepair.json() : "") + "}");
            out.flush();
            return;
        }
        out.printf("pools vs %s up to the feed worker's offsets (groups %s): %d chunk records", history.groups().keySet(),
                history.groups().values(), history.records());
        if (history.undecodable() > 0) out.printf(", %d not chunks (dead-lettered by the worker)", history.undecodable());
        out.println();
        if (history.notYetApplied() > 0) {
            out.printf("%d records past the worker's offsets are not applied yet: nothing expected of them%n", history.notYetApplied());
        }
        out.println("checked " + report.countsLine());
        report.found.print(out);
        out.printf("%d differences%n", report.found.total());
        if (repair) {
            out.printf("repaired %d users; checked again: %d differences left%n", report.usersRepaired, report.afterRepair.total());
            report.afterRepair.print(out);
        }
        out.flush();
    }
}
