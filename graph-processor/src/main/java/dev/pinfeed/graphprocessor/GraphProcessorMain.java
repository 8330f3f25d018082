package dev.pinfeed.graphprocessor;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.followergraph.redis.GraphConnections;
import dev.pinfeed.followergraph.redis.RedisGraphStore;
import dev.pinfeed.processorruntime.BatchHandler;
import dev.pinfeed.processorruntime.ConsumerLoop;
import dev.pinfeed.processorruntime.ProcessMain;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
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
    public static final String GROUP = "pinfeed-follower-graph";
    public static final List<String> TOPICS = List.of(EventTopics.FOLLOWS, EventTopics.BOARDS);

    /** How long a batch waits for each instance's replica before its offsets are committed anyway. */
    public static final String REPLICA_WAIT_MS = "graph.processor.replica-wait-ms";

    private GraphProcessorMain() {}

    /** What the processor does with a poll, as its main wires it (other composition roots: the pipeline and fault tests). */
    public static BatchHandler handler(RedisGraphStore store, PinfeedConfig config, MeterRegistry meters) {
        return replicatedBeforeCommit(BatchHandler.perRecord(new GraphEventHandler(store)), store,
                Duration.ofMillis(config.getInt(REPLICA_WAIT_MS, 1_000)), meters);
    }

    /**
     * {@code apply}, then a replication barrier before the loop commits the batch's offsets: with the
     * replicas caught up, a Redis failover ({@code ./pinfeed failover redis001}) loses nothing that
     * was committed, and what was not committed is replayed from Kafka (every write is idempotent).
     * An instance whose replica does not confirm in time is counted
     * ({@code graph_unreplicated_batches_total{instance}}) and the offsets are committed anyway: a lost
     * replica must not stop the graph, and the master's AOF still holds the writes.
     */
    static BatchHandler replicatedBeforeCommit(BatchHandler apply, RedisGraphStore store, Duration wait, MeterRegistry meters) {
        Meter.MeterProvider<Counter> unreplicated = Counter.builder("graph_unreplicated_batches_total")
                .description("Batches committed although an instance's replica had not confirmed their writes").withRegistry(meters);
        return (records, outcomes) -> {
            apply.apply(records, outcomes);
            store.unreplicated(wait).forEach(instance -> unreplicated.withTags("instance", instance).increment());
        };
    }

    public static void main(String[] args) {
        ProcessMain.run(NAME, ctx -> {
            ctx.step("serving the admin endpoint", ctx::serveAdmin);
            CuratorFramework zk = ctx.step("connecting to ZooKeeper " + ctx.config().appZookeeper(), ctx::curator);
            GraphConnections graph = ctx.closeOnExit(ctx.step("opening the follower graph in Redis",
                    () -> GraphConnections.open(ctx.config(), zk, GraphConnections.keyPrefix(ctx.config()))));
            for (String instance : graph.store().instances()) ctx.readiness(instance, () -> graph.store().ping(instance));
            List<String> topics = ctx.config().list("graph.processor.topics").isEmpty() ? TOPICS : ctx.config().list("graph.processor.topics");
            ctx.consume(ConsumerLoop.Settings.of(NAME, ctx.config().get("graph.processor.group", GROUP), topics),
                    handler(graph.store(), ctx.config(), ctx.meters()));
        });
    }
}
