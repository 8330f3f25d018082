package dev.pinfeed.operations.shards;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.clikit.Interruption;
import dev.pinfeed.clikit.Progress;
import dev.pinfeed.clikit.StepLines;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.operations.OperationsCli;
import dev.pinfeed.redisshards.RedisShardMap;
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

/** {@code ./pinfeed redis-shards move|finalize|status}: Redis virtual shards moved between instances online. */
@Command(name = "redis-shards", mixinStandardHelpOptions = true,
        description = {"Where the Redis virtual shards live (the follower graph, caches, last reads, affinities), and moving a range",
                "of them to another instance online (docs/operations.md, Moving Redis virtual shards)."},
        subcommands = {RedisShardsCommand.Move.class, RedisShardsCommand.Finalize.class, RedisShardsCommand.Status.class})
public final class RedisShardsCommand implements Callable<Integer> {

    @ParentCommand OperationsCli root;
    @Spec CommandSpec spec;

    @Override
    public Integer call() {
        throw Cli.usage(spec, "say what to do: " + String.join(", ", spec.subcommands().keySet()));
    }

    private <T> T withMover(PrintWriter out, MoverCall<T> call) throws Exception {
        PinfeedConfig config = root.config();
        StepLines lines = new StepLines(out, Progress.mode(false), "[pinfeed] ");
        try (lines; CuratorFramework zk = CuratorClients.start(config); Interruption interruption = ShardsCommand.interruption(spec)) {
            return call.run(new RedisShardMover(config, zk, lines::step, lines::waiting, interruption::requested, Clock.systemUTC()));
        }
    }

    @FunctionalInterface
    private interface MoverCall<T> {
        T run(RedisShardMover mover) throws Exception;
    }

    @Command(name = "move", mixinStandardHelpOptions = true,
            description = {"Copies a range of virtual shards to another instance while they stay in use, copies again what changed,",
                    "then cuts over: writers of the range pause (they wait, they do not fail) until every process has let go of it",
                    "and the map points at the new instance. `redis-shards move --undo` moves the range back; `finalize` deletes the old copy."})
    static final class Move implements Callable<Integer> {
        @ParentCommand RedisShardsCommand shards;
        @Spec CommandSpec spec;

        @Option(names = "--shards", required = true, paramLabel = "FIRST-LAST", description = "the virtual shards to move (0-8191); all on one instance")
        String range;
        @Option(names = "--to", paramLabel = "INSTANCE", description = "the instance that takes them (one of redis.instances)") String to;
        @Option(names = "--undo", description = "move a moved (not finalized) range back; roll back an unfinished move") boolean undo;

        @Override
        public Integer call() throws Exception {
            int[] r = ShardsCommand.range(spec, range);
            if (undo == (to != null)) throw Cli.usage(spec, "say --to INSTANCE, or --undo");
            PrintWriter out = spec.commandLine().getOut();
            RedisShardMover.Report report = shards.withMover(out, mover -> undo ? mover.undo(r[0], r[1]) : mover.move(r[0], r[1], to));
            out.printf(Locale.ROOT, "%s virtual shards %d-%d in %.1f s: %d keys copied, %d copied again after a change; writers of the range paused %d ms%n",
                    undo ? "moved back" : "moved", r[0], r[1], report.took().toMillis() / 1000.0, report.keysCopied(), report.keysCopiedAgain(),
                    report.writePause().toMillis());
            if (!undo) out.printf("finalize with: ./pinfeed redis-shards finalize --shards %d-%d (or undo: ./pinfeed redis-shards move --shards %d-%d --undo)%n",
                    r[0], r[1], r[0], r[1]);
            return Cli.OK;
        }
    }

    @Command(name = "finalize", mixinStandardHelpOptions = true,
            description = "Ends a move: the old instance's copy of the range is deleted; it can no longer be undone.")
    static final class Finalize implements Callable<Integer> {
        @ParentCommand RedisShardsCommand shards;
        @Spec CommandSpec spec;

        @Option(names = "--shards", required = true, paramLabel = "FIRST-LAST", description = "the range of a finished move") String range;

        @Override
        public Integer call() throws Exception {
            int[] r = ShardsCommand.range(spec, range);
            PrintWriter out = spec.commandLine().getOut();
            ShardMoves.Move m = shards.withMover(out, mover -> mover.finalizeMove(r[0], r[1]));
            out.printf(Locale.ROOT, "finalized: virtual shards %d-%d live on %s; %s's old copy deleted%n", m.first(), m.last(), m.to(), m.from());
            return Cli.OK;
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true, description = "Where each range of virtual shards lives, fences, and moves under way.")
    static final class Status implements Callable<Integer> {
        @ParentCommand RedisShardsCommand shards;
        @Spec CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut();
            shards.withMover(out, mover -> {
                RedisShardMap map = mover.map();
                List<ShardMoves.Move> moves = mover.moves();
                out.printf(Locale.ROOT, "%-12s %-10s %s%n", "SHARDS", "INSTANCE", "MASTER");
                for (RedisShardMap.Range r : map.ranges()) {
                    out.printf(Locale.ROOT, "%-12s %-10s %s%n", r.first() + "-" + r.last(), r.instance(), mover.master(r.instance()));
                }
                for (RedisShardMap.Span f : map.fences()) out.println("fenced: virtual shards " + f + " (a cutover is under way; writers wait)");
                if (moves.isEmpty()) out.println("no moves under way");
                for (ShardMoves.Move m : moves) {
                    out.printf(Locale.ROOT, "move: virtual shards %s from %s to %s: %s%s%n", m.range(), m.from(), m.to(),
                            m.phase().name().toLowerCase(Locale.ROOT), m.phase() == ShardMoves.Phase.MOVED ? " (finalize or --undo)" : "");
                }
                return null;
            });
            return Cli.OK;
        }
    }
}
