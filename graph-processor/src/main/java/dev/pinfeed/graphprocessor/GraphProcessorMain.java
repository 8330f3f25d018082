package dev.pinfeed.graphprocessor;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.eventsschema.CachingSchemaRegistryClient;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import dev.pinfeed.followergraph.redis.GraphConnections;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The graph processor as a process: {@code java -cp graph-processor/target/classes:$(cat graph-processor/target/classpath.txt)
 * dev.pinfeed.graphprocessor.GraphProcessorMain}. Endpoints from {@link PinfeedConfig} (PINFEED_CONFIG);
 * stops cleanly on SIGTERM / Ctrl-C, committing what it applied. Logs warnings only, plus one line at
 * start and one at stop.
 */
public final class GraphProcessorMain {

    private GraphProcessorMain() {}

    public static void main(String[] args) throws Exception {
        GraphProcess.configureLogging();
        Logger log = LoggerFactory.getLogger(GraphProcessorMain.class);
        PinfeedConfig config = PinfeedConfig.load();
        CuratorFramework zk = GraphProcess.zookeeper(config);
        GraphConnections connections;
        try {
            connections = GraphConnections.open(config, zk, GraphConnections.keyPrefix(config));
        } catch (Exception | Error e) {
            zk.close();
            throw e;
        }
        GraphProcessor.Settings settings = GraphProcessor.Settings.from(config);
        GraphProcessor processor = GraphProcessor.create(settings,
                new CachingSchemaRegistryClient(new HttpSchemaRegistryClient(config.schemaRegistryUrl())), connections.store());
        Thread main = Thread.currentThread();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            processor.close();
            try {
                main.join(35_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "graph-processor-shutdown"));
        log.info("graph processor: group {} on {}, dead letters to {}, redis shards {}, key prefix '{}'",
                settings.groupId(), settings.topics(), settings.deadLetterTopic(), connections.shards().get(),
                connections.store().keys().prefix());
        try {
            processor.run();
        } finally {
            connections.close();
            zk.close();
            log.info("graph processor stopped: {}", processor.stats());
        }
    }
}
