package dev.pinfeed.operations.failover;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.clikit.Progress;
import dev.pinfeed.clikit.StepLines;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.mysqlshards.MysqlFailover;
import dev.pinfeed.mysqlshards.MysqlShardConfig;
import dev.pinfeed.mysqlshards.MysqlShardMap;
import dev.pinfeed.operations.OperationsCli;
import dev.pinfeed.redismasters.RedisClientSettings;
import dev.pinfeed.redismasters.RedisFailover;
import dev.pinfeed.redismasters.RedisMasterConfig;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code ./pinfeed failover HOST}: a MySQL shard host's or a Redis instance's replica promoted, the live map pointed at it. */
@Command(name = "failover", mixinStandardHelpOptions = true,
        description = {"Promotes the replica of a MySQL shard host or a Redis instance to master and points the live map in ZooKeeper at it",
                "(docs/operations.md, Failover). The services watching the map follow it without a restart."})
public final class FailoverCommand implements Callable<Integer> {

    @ParentCommand OperationsCli root;
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "HOST", description = "A MySQL shard host of the map (e.g. mysql002) or a Redis instance (e.g. redis001).")
    String host;

    @Override
    public Integer call() throws Exception {
        PinfeedConfig config = root.config();
        PrintWriter out = spec.commandLine().getOut();
        // Steps stay; the replica waits ("waiting ...", every 2 s) update one line on a terminal.
        StepLines lines = new StepLines(out, Progress.mode(false), "[pinfeed] ");
        Consumer<String> say = line -> {
            if (line.startsWith("waiting")) lines.waiting(line);
            else lines.step(line);
        };
        try (lines; CuratorFramework zk = CuratorClients.start(config)) {
            if (config.list("redis.instances").contains(host)) {
                RedisFailover.Report r = new RedisFailover(RedisClientSettings.from(config), Duration.ofSeconds(30), say)
                        .failover(zk, RedisMasterConfig.znode(config), host, config.redisInstances());
                lines.close();
                out.printf(Locale.ROOT, "%s: %s promoted in %.1f s (old master %s %s; replication offset %d)%n", r.instance(), r.newMaster(),
                        r.took().toMillis() / 1000.0, r.oldMaster(), r.fencedOldMaster() ? "fenced, now its replica" : "not answering",
                        r.replicaOffset());
                if (!r.fencedOldMaster()) out.println("it has no replica now: restart the old server as its replica (docs/operations.md, Failover)");
                return Cli.OK;
            }
            MysqlFailover.Report r = MysqlFailover.from(config, say)
                    .failover(zk, MysqlShardConfig.znode(config), host, MysqlShardMap.HostAddresses.from(config));
            lines.close();
            out.printf(Locale.ROOT, "%s: %s promoted in %.1f s (old master %s %s; applied up to GTID %s)%n", r.host(), r.newMaster(),
                    r.took().toMillis() / 1000.0, r.oldMaster(), r.fencedOldMaster() ? "fenced read-only" : "not answering", r.appliedGtid());
            out.println("it has no replica now: attach one (docs/operations.md, Failover) and set it in the map");
        }
        return Cli.OK;
    }
}
