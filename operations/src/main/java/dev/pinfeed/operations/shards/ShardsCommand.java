package dev.pinfeed.operations.shards;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.clikit.Interruption;
import dev.pinfeed.clikit.Progress;
import dev.pinfeed.clikit.StepLines;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.operations.OperationsCli;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.curator.framework.CuratorFramework;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code ./pinfeed shards move|finalize|status}: logical MySQL shards moved between hosts online. */
@Command(name = "shards", mixinStandardHelpOptions = true,
        description = {"Where the logical MySQL shards live, and moving a range of them to another host online",
                "(docs/operations.md, Moving shards). Services follow the live map without a restart."},
        subcommands = {ShardsCommand.Move.class, ShardsCommand.Finalize.class, ShardsCommand.Status.class, ShardsCommand.Open.class,
                ShardsCommand.NewUsers.class})
public final class ShardsCommand implements Callable<Integer> {

    @ParentCommand OperationsCli root;
    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        throw Cli.usage(spec, "say what to do: " + String.join(", ", spec.subcommands().keySet()));
    }

    /** Ctrl-C during a move: it stops before its cutover (or after it, if it is under way) and says where things are. */
    static Interruption interruption(CommandSpec spec) {
        return Interruption.install(spec.commandLine().getErr(), MOVE_STOP_GRACE,
                () -> "./pinfeed " + spec.name() + " status shows where each range lives; a move stopped before its cutover was rolled back"
                        + " and starts over when run again");
    }

    /** How long Ctrl-C waits for a move to stop at its next check (and roll back) or finish its cutover. */
    static final java.time.Duration MOVE_STOP_GRACE = java.time.Duration.ofSeconds(60);

    /** {@code FIRST-LAST} (or one shard). */
    static int[] range(CommandSpec spec, String text) {
        try {
            int dash = text.indexOf('-');
            int first = Integer.parseInt(dash < 0 ? text : text.substring(0, dash));
            int last = dash < 0 ? first : Integer.parseInt(text.substring(dash + 1));
            if (first < 0 || last < first) throw new NumberFormatException();
            return new int[] {first, last};
        } catch (NumberFormatException e) {
            throw Cli.usage(spec, "--shards takes FIRST-LAST, e.g. 0-63, not '" + text + "'");
        }
    }

    private <T> T withMover(PrintWriter out, MoverCall<T> call) throws Exception {
        PinfeedConfig config = root.config();
        StepLines lines = new StepLines(out, Progress.mode(false), "[pinfeed] ");
        try (lines; CuratorFramework zk = CuratorClients.start(config); Interruption interruption = interruption(spec)) {
            return call.run(new MysqlShardMover(config, zk, lines::step, lines::waiting, interruption::requested, Clock.systemUTC()), lines);
        }
    }

    @FunctionalInterface
    private interface MoverCall<T> {
        T run(MysqlShardMover mover, StepLines lines) throws Exception;
    }

    @Command(name = "move", mixinStandardHelpOptions = true,
            description = {"Copies a range of shards to another host from a consistent snapshot, catches the copy up from the source's",
                    "binlog, then cuts over: writers of the range pause (they wait, they do not fail) until the map points at the new host.",
                    "The old host keeps its copy until `shards finalize`; `shards move --undo` moves the range back with what was written since."})
    static final class Move implements Callable<Integer> {
        @ParentCommand ShardsCommand shards;
        @Spec CommandSpec spec;

        @Option(names = "--shards", required = true, paramLabel = "FIRST-LAST", description = "the range to move; all on one host") String range;
        @Option(names = "--to", paramLabel = "HOST", description = "the host that takes the range (in the map, or mysql.HOST.master in the configuration)")
        String to;
        @Option(names = "--undo", description = "move a moved (not finalized) range back to its old host; roll back an unfinished move")
        boolean undo;

        @Override
        public Integer call() throws Exception {
            int[] r = range(spec, range);
            if (undo == (to != null)) throw Cli.usage(spec, "say --to HOST, or --undo");
            PrintWriter out = spec.commandLine().getOut();
            MysqlShardMover.Report report = shards.withMover(out, (mover, lines) -> undo ? mover.undo(r[0], r[1]) : mover.move(r[0], r[1], to));
            out.printf(Locale.ROOT, "%s shards %d-%d (%d databases) in %.1f s; writers of the range paused %d ms; %d rows replayed from the binlog%n",
                    undo ? "moved back" : "moved", r[0], r[1], report.databases(), report.took().toMillis() / 1000.0, report.writePause().toMillis(),
                    report.rowsReplayed());
            if (!undo) out.printf("finalize with: ./pinfeed shards finalize --shards %d-%d (or undo: ./pinfeed shards move --shards %d-%d --undo)%n",
                    r[0], r[1], r[0], r[1]);
            return Cli.OK;
        }
    }

    @Command(name = "finalize", mixinStandardHelpOptions = true,
            description = "Ends a move: the old host's copy of the range (db…__moved) is dropped; it can no longer be undone.")
    static final class Finalize implements Callable<Integer> {
        @ParentCommand ShardsCommand shards;
        @Spec CommandSpec spec;

        @Option(names = "--shards", required = true, paramLabel = "FIRST-LAST", description = "the range of a finished move") String range;

        @Override
        public Integer call() throws Exception {
            int[] r = range(spec, range);
            PrintWriter out = spec.commandLine().getOut();
            ShardMoves.Move m = shards.withMover(out, (mover, lines) -> mover.finalizeMove(r[0], r[1]));
            out.printf(Locale.ROOT, "finalized: shards %d-%d live on %s; %s's old copy dropped%n", m.first(), m.last(), m.to(), m.from());
            return Cli.OK;
        }
    }

    @Command(name = "open", mixinStandardHelpOptions = true,
            description = {"Opens new shards past the end of the map on a host: creates their databases, grows the live map and sends",
                    "new users (and what they create) there. Nothing moves; services follow without a restart."})
    static final class Open implements Callable<Integer> {
        @ParentCommand ShardsCommand shards;
        @Spec CommandSpec spec;

        @Option(names = "--shards", required = true, paramLabel = "FIRST-LAST", description = "the new shards, starting where the map ends") String range;
        @Option(names = "--on", required = true, paramLabel = "HOST", description = "the host that holds them") String host;
        @Option(names = "--keep-new-users", description = "open the shards but leave new users where they go now") boolean keepNewUsers;

        @Override
        public Integer call() throws Exception {
            int[] r = range(spec, range);
            PrintWriter out = spec.commandLine().getOut();
            List<String> schema = dev.pinfeed.operations.provision.Provisioner.shardSchema(
                    dev.pinfeed.operations.provision.ProvisionCommand.defaultDefinitions());
            MysqlShardMap map = shards.withMover(out, (mover, lines) -> mover.open(r[0], r[1], host, schema, keepNewUsers));
            out.printf(Locale.ROOT, "opened shards %d-%d on %s; the map now has shards 0-%d; new users go to %s%n", r[0], r[1], host,
                    map.shardCount() - 1, newUsers(map));
            return Cli.OK;
        }
    }

    @Command(name = "new-users", mixinStandardHelpOptions = true,
            description = "Where new users (and what they create) go: shard ranges of the map, or back to the configuration's ids.open-shards.")
    static final class NewUsers implements Callable<Integer> {
        @ParentCommand ShardsCommand shards;
        @Spec CommandSpec spec;

        @Option(names = "--shards", paramLabel = "FIRST-LAST[,FIRST-LAST...]", split = ",", description = "the ranges, ascending") List<String> ranges;
        @Option(names = "--configured", description = "follow the configuration's ids.open-shards again") boolean configured;

        @Override
        public Integer call() throws Exception {
            if ((ranges == null || ranges.isEmpty()) == !configured) throw Cli.usage(spec, "say --shards FIRST-LAST,... or --configured");
            List<MysqlShardMap.Span> spans = new java.util.ArrayList<>();
            if (ranges != null) for (String text : ranges) {
                int[] r = range(spec, text);
                spans.add(new MysqlShardMap.Span(r[0], r[1]));
            }
            PrintWriter out = spec.commandLine().getOut();
            MysqlShardMap map = shards.withMover(out, (mover, lines) -> mover.newUsers(spans));
            out.println("new users go to " + newUsers(map));
            return Cli.OK;
        }
    }

    static String newUsers(MysqlShardMap map) {
        return map.newUsers().isEmpty() ? "the configured ids.open-shards"
                : "shards " + String.join(",", map.newUsers().stream().map(MysqlShardMap.Span::toString).toList());
    }

    @Command(name = "status", mixinStandardHelpOptions = true, description = "Where each range of shards lives, fences, and moves under way.")
    static final class Status implements Callable<Integer> {
        @ParentCommand ShardsCommand shards;
        @Spec CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut();
            shards.withMover(out, (mover, lines) -> {
                MysqlShardMap map = mover.map();
                List<ShardMoves.Move> moves = mover.moves();
                out.printf(Locale.ROOT, "%-12s %-10s %-22s %s%n", "SHARDS", "HOST", "MASTER", "REPLICA");
                for (MysqlShardMap.Range r : map.ranges()) {
                    out.printf(Locale.ROOT, "%-12s %-10s %-22s %s%n", r.first() + "-" + r.last(), r.host(), r.master(),
                            r.replica() == null ? "-" : r.replica());
                }
                for (MysqlShardMap.Span f : map.fences()) out.println("fenced: shards " + f + " (a cutover is under way; writers wait)");
                out.println("new users go to " + newUsers(map));
                if (moves.isEmpty()) out.println("no moves under way");
                for (ShardMoves.Move m : moves) {
                    out.printf(Locale.ROOT, "move: shards %s from %s to %s: %s%s%n", m.range(), m.from(), m.to(),
                            m.phase().name().toLowerCase(Locale.ROOT),
                            m.phase() == ShardMoves.Phase.MOVED ? " (finalize or --undo)" : "");
                }
                return null;
            });
            return Cli.OK;
        }
    }
}
