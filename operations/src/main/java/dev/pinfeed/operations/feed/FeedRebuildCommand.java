package dev.pinfeed.operations.feed;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.clikit.Interruption;
import dev.pinfeed.clikit.Progress;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.contentgenerator.PoolRegenerator;
import dev.pinfeed.contentgenerator.RegenerationSettings;
import dev.pinfeed.feedstore.scoring.WeightedScorer;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code ./pinfeed feed rebuild}: users' pools regenerated from what they follow, their materialized views reset ({@link FeedRebuilder}). */
@Command(name = "rebuild", mixinStandardHelpOptions = true,
        description = {"Empties users' pools and fills them again from the graph and the newest pins of what they follow, and resets",
                "their materialized feeds (items, journal, generator state): their next read generates afresh."})
public final class FeedRebuildCommand implements Callable<Integer> {

    /** Users listed from the canonical store per query with --all. */
    private static final int PAGE = 500;

    @ParentCommand FeedCommand feed;
    @Spec CommandSpec spec;

    @Option(names = {"--user", "--users"}, split = ",", paramLabel = "ID", description = "the users to rebuild") List<Long> users;
    @Option(names = "--all", description = "every user of the canonical store, in id order") boolean all;
    @Option(names = "--after", paramLabel = "ID", description = "with --all: start after this user (resume)") Long after;
    @Option(names = "--dry-run", description = "say what would be rebuilt, change nothing") boolean dryRun;
    @Option(names = "--json", description = "progress and the result as JSON lines on stdout") boolean json;

    /** Totals over the users done. */
    private long done;
    private long lastUser;
    private long poolEntries;
    private long damagedRows;
    private long feedItems;
    private long pendingChunks;
    private long regenerated;

    @Override
    public Integer call() throws Exception {
        if ((users == null || users.isEmpty()) == !all) throw Cli.usage(spec, "say which users: --user ID,... or --all");
        if (after != null && !all) throw Cli.usage(spec, "--after goes with --all");
        PinfeedConfig config = feed.config();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter progressOut = json ? out : spec.commandLine().getErr();
        // Outermost: on Ctrl-C the JVM exits once this closes, so the summary is printed before.
        try (Interruption interruption = Interruption.install(spec.commandLine().getErr(), Duration.ofSeconds(30), this::resumeHint)) {
            try (HomeFeedStores stores = HomeFeedStores.open(config, !dryRun)) {
                PoolRegenerator regenerator = new PoolRegenerator(stores.poolWrites(), stores.feeds(), stores.canonical(), stores.graph(),
                        new WeightedScorer(WeightedScorer.Settings.from(config), Clock.systemUTC()), RegenerationSettings.from(config));
                FeedRebuilder rebuilder = new FeedRebuilder(stores.poolWrites(), stores.pools(), stores.feeds(), regenerator, Clock.systemUTC());
                CanonicalUserIds everyone = new CanonicalUserIds(stores.db());
                Deque<Long> queue = new ArrayDeque<>(all ? List.of() : new LinkedHashSet<>(users));
                long total = !all ? queue.size() : after == null ? everyone.count() : -1; // resumed: how many are left is not known
                long cursor = after == null ? 0 : after;
                try (Progress progress = Progress.start(progressOut, Progress.mode(json), dryRun ? "feed rebuild (dry run)" : "feed rebuild",
                        total, "users", Clock.systemUTC()).startTicker()) {
                    while (!interruption.requested()) {
                        if (queue.isEmpty() && all) queue.addAll(everyone.after(cursor, PAGE));
                        if (queue.isEmpty()) break;
                        long user = queue.poll();
                        FeedRebuilder.Outcome o;
                        try {
                            o = rebuilder.rebuild(user, dryRun);
                        } catch (RuntimeException e) {
                            throw new IllegalStateException("stopped at user " + user + ": " + Cli.firstLine(e) + "; " + resumeHint(), e);
                        }
                        add(o);
                        cursor = user;
                        if (!all) line(out, o);
                        progress.advance(1);
                    }
                    progress.done(summary());
                }
            }
            boolean stopped = interruption.requested();
            if (json) out.println("{\"task\":\"feed rebuild\",\"dryRun\":" + dryRun + ",\"users\":" + done + ",\"lastUser\":" + lastUser
                    + ",\"poolEntriesBefore\":" + poolEntries + ",\"damagedPoolRowsBefore\":" + damagedRows + ",\"feedItemsBefore\":" + feedItems
                    + ",\"pendingChunksBefore\":" + pendingChunks + ",\"regenerated\":" + regenerated + ",\"interrupted\":" + stopped + "}");
            else out.println(summary());
            out.flush();
            return stopped ? Cli.INTERRUPTED : Cli.OK;
        }
    }

    private void add(FeedRebuilder.Outcome o) {
        done++;
        lastUser = o.userId();
        poolEntries += o.poolEntries();
        damagedRows += o.damagedPoolRows();
        feedItems += o.feedItems();
        pendingChunks += o.pendingChunks();
        regenerated += o.regenerated();
    }

    private void line(PrintWriter out, FeedRebuilder.Outcome o) {
        if (json) {
            out.println("{\"user\":" + o.userId() + ",\"poolEntriesBefore\":" + o.poolEntries() + ",\"damagedPoolRowsBefore\":" + o.damagedPoolRows()
                    + ",\"feedItemsBefore\":" + o.feedItems() + ",\"pendingChunksBefore\":" + o.pendingChunks() + ",\"regenerated\":" + o.regenerated() + "}");
        } else {
            out.printf("user %d: had %d pool entries (%d damaged rows), %d feed items, %d pending chunks; %s %d pool entries%n", o.userId(),
                    o.poolEntries(), o.damagedPoolRows(), o.feedItems(), o.pendingChunks(), dryRun ? "would regenerate" : "regenerated",
                    o.regenerated());
        }
        out.flush();
    }

    private String summary() {
        return (dryRun ? "dry run, nothing changed: would rebuild " : "rebuilt ") + done + " users (before: " + poolEntries + " pool entries, "
                + damagedRows + " damaged pool rows, " + feedItems + " feed items, " + pendingChunks + " pending chunks); "
                + regenerated + " pool entries " + (dryRun ? "to regenerate" : "regenerated");
    }

    private String resumeHint() {
        if (!all) return "rebuilt " + done + " of the users given (through " + lastUser + "); run the command again for the others.";
        long from = done == 0 && after != null ? after : lastUser;
        return "rebuilt " + done + " users; resume with: ./pinfeed feed rebuild --all --after " + from + (dryRun ? " --dry-run" : "");
    }
}
