package dev.pinfeed.graphprocessor;

import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.followergraph.redis.GraphConnections;
import dev.pinfeed.processorruntime.BatchHandler;
import dev.pinfeed.processorruntime.ConsumerLoop;
import dev.pinfeed.processorruntime.ProcessMain;
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
    public static final String GROUP = "pinfeed-follower-graph";
    public static final List<String> TOPICS = List.of(EventTopics.FOLLOWS, EventTopics.BOARDS);

    private GraphProcessorMain() {}

    public static void main(String[] args) {
        ProcessMain.run(NAME, ctx -> {
            ctx.step("serving the admin endpoint", ctx::serveAdmin);
            CuratorFramework zk = ctx.step("connecting to ZooKeeper " + ctx.config().appZookeeper(), ctx::curator);
            GraphConnections graph = ctx.closeOnExit(ctx.step("opening the follower graph in Redis",
                    () -> GraphConnections.open(ctx.config(), zk, GraphConnections.keyPrefix(ctx.config()))));
            for (String instance : graph.store().instances()) ctx.readiness(instance, () -> graph.store().ping(instance));
            List<String> topics = ctx.config().list("graph.processor.topics").isEmpty() ? TOPICS : ctx.config().list("graph.processor.topics");
            ctx.consume(ConsumerLoop.Settings.of(NAME, ctx.config().get("graph.processor.group", GROUP), topics),
                    BatchHandler.perRecord(new GraphEventHandler(graph.store())));
        });
    }
}
