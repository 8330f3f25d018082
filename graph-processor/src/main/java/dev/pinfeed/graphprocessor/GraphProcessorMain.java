package dev.pinfeed.graphprocessor;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.followergraph.redis.GraphConnections;
import dev.pinfeed.followergraph.redis.RedisGraphStore;
import dev.pinfeed.processorruntime.BatchHandler;
import dev.pinfeed.processorruntime.ConsumerLoop;
import dev.pinfeed.processorruntime.ProcessContext;
import dev.pinfeed.processorruntime.ProcessorGroups;
import dev.pinfeed.processorruntime.ProcessMain;
import dev.pinfeed.processorruntime.ReplicationBarrier;
import dev.pinfeed.redisshards.RedisShards;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;

/**
 * The graph processor as a process: {@code java -cp graph-processor/target/classes:$(cat
 * graph-processor/target/classpath.txt) dev.pinfeed.graphprocessor.GraphProcessorMain}. Consumes the
 * follows and boards topics ({@code graph.processor.topics}; group {@code graph.processor.group}, default {@value #GROUP}) into the
 * Redis graph on the runtime's loop; admin endpoint at {@code graph-processor.admin.http}.
 */
public final class GraphProcessorMain {

    public static final String NAME = "graph-processor";
    public static final String GROUP = ProcessorGroups.FOLLOWER_GRAPH;
    public static final List<String> TOPICS = List.of(EventTopics.FOLLOWS, EventTopics.BOARDS);

    /** How long a batch waits for each instance's replica before its offsets are committed anyway. */
    public static final String REPLICA_WAIT_MS = "graph.processor.replica-wait-ms";

    private GraphProcessorMain() {}

    /**
     * What the processor does with a poll, as its main wires it (other composition roots: the pipeline
     * and fault tests): apply, then a replication barrier before the offsets are committed
     * ({@link ReplicationBarrier}; {@code graph_unreplicated_batches_total{instance}}), so a Redis
     * failover ({@code ./pinfeed failover redis001}) loses nothing that was committed.
     */
    /** The topics the processor consumes: {@code graph.processor.topics}, else {@link #TOPICS}. */
    public static List<String> topics(PinfeedConfig config) {
        List<String> configured = config.list("graph.processor.topics");
        return configured.isEmpty() ? TOPICS : configured;
    }

    /** The processor's consumer group: {@code graph.processor.group}, else {@value #GROUP}. */
    public static String group(PinfeedConfig config) {
        return ProcessorGroups.followerGraph(config);
    }

    public static BatchHandler handler(RedisGraphStore store, PinfeedConfig config, MeterRegistry meters) {
        return ReplicationBarrier.beforeCommit(new GraphEventHandler(store), store::unreplicated,
                Duration.ofMillis(config.getInt(REPLICA_WAIT_MS, 1_000)), meters, "graph_unreplicated_batches_total");
    }

    public static void main(String[] args) {
        ProcessMain.run(NAME, GraphProcessorMain::start);
    }

    /**
     * What the graph processor opens and runs, in the context it is given: the live process's ({@link #main}), or a
     * bounded one that applies a range of its topics ({@code ./pinfeed replay ... --to}, {@link ProcessContext#bounded}).
     */
    public static void start(ProcessContext ctx) throws Exception {
        ctx.step("serving the admin endpoint", ctx::serveAdmin);
        CuratorFramework zk = ctx.step("connecting to ZooKeeper " + ctx.config().appZookeeper(), ctx::curator);
        GraphConnections graph = ctx.closeOnExit(ctx.step("opening the follower graph in Redis",
                () -> GraphConnections.open(ctx.config(), zk, RedisShards.keyPrefix(ctx.config()))));
        for (String instance : graph.store().instances()) ctx.readiness(instance, () -> graph.store().ping(instance));
        ctx.consume(ConsumerLoop.Settings.of(NAME, group(ctx.config()), topics(ctx.config())),
                handler(graph.store(), ctx.config(), ctx.meters()));
    }
}
