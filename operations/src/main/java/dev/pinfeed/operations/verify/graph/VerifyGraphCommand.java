package dev.pinfeed.operations.verify.graph;

import dev.pinfeed.clikit.Cli;
import dev.pinfeed.clikit.Interruption;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.zookeeper.CuratorClients;
import dev.pinfeed.followergraph.redis.GraphConnections;
import dev.pinfeed.graphprocessor.GraphProcessorMain;
import dev.pinfeed.operations.verify.VerifyCommand;
import dev.pinfeed.redisshards.RedisShards;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code ./pinfeed verify graph [--repair]}: the follower graph in Redis against the follows and boards topics ({@link GraphVerification}). */
@Command(name = "graph", mixinStandardHelpOptions = true,
        description = {"Replays the graph processor's topics (graph.processor.topics) from offset 0 to their end into an in-memory",
                "graph built by the processor's own code, scans every Redis instance for the graph's keys under the key prefix",
                "(graph.redis.key-prefix) and compares them key by key; a difference is reported only if it is still there",
                "once the processor's group (graph.processor.group) has passed the topics' end offsets. Exit 0 when there is",
                "none, 1 when there are, 130 when interrupted."})
public final class VerifyGraphCommand implements Callable<Integer> {

    @ParentCommand VerifyCommand verify;
    @Spec CommandSpec spec;

    @Option(names = "--repair", description = "write the fix of every difference found, then verify again and exit by that") boolean repair;
    @Option(names = "--max-printed", defaultValue = "20", paramLabel = "N", description = "keys printed per kind (default ${DEFAULT-VALUE})")
    int maxPrinted;
    @Option(names = "--json", description = "progress and reports as JSON lines on stdout") boolean json;
    @Option(names = "--wait", defaultValue = "120", paramLabel = "SECONDS",
            description = "how long to wait for the graph processor to pass the topics' end offsets (default ${DEFAULT-VALUE})")
    int waitSeconds;

    @Override
    public Integer call() throws Exception {
        if (maxPrinted < 0) throw Cli.usage(spec, "--max-printed must be 0 or more, was " + maxPrinted);
        if (waitSeconds < 0) throw Cli.usage(spec, "--wait must be 0 or more seconds, was " + waitSeconds);
        PinfeedConfig config = verify.config();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        AtomicReference<GraphVerification> running = new AtomicReference<>();
        try (Interruption interruption = Interruption.install(err, Duration.ofSeconds(30), () -> running.get() == null
                ? "nothing was changed; run ./pinfeed verify graph again" : running.get().resumeHint());
             CuratorFramework zk = CuratorClients.connected(config, 20);
             GraphConnections graph = GraphConnections.open(config, zk, RedisShards.keyPrefix(config));
             GraphTopics topics = new GraphTopics(config, GraphProcessorMain.topics(config), GraphProcessorMain.group(config))) {
            GraphReport report = new GraphReport(out, json, maxPrinted, RedisShards.keyPrefix(config), topics.topics(), topics.group());
            GraphVerification verification = new GraphVerification(new GraphVerification.Settings(repair, json, Duration.ofSeconds(waitSeconds)),
                    topics, graph.store().keyspace(), report, json ? out : err, interruption::requested, new GraphVerification.Phases() {},
                    Clock.systemUTC());
            running.set(verification);
            return verification.run();
        }
    }
}
