package dev.pinfeed.followergraph;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.eventsschema.CachingSchemaRegistryClient;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The follower-graph processor as a process: {@code java -cp target/classes:$(cat target/classpath.txt)
 * dev.pinfeed.followergraph.FollowGraphProcessorMain}. Endpoints from {@link PinfeedConfig} (PINFEED_CONFIG);
 * stops cleanly on SIGTERM / Ctrl-C, committing what it applied. Logs warnings only, plus one line at
 * start and one at stop.
 */
public final class FollowGraphProcessorMain {

    private FollowGraphProcessorMain() {}

    public static void main(String[] args) throws Exception {
        if (System.getProperty("log4j2.configurationFile") == null) {
            System.setProperty("log4j2.configurationFile", "log4j2-follower-graph.xml");
        }
        // Our shutdown hook logs the final stats; Log4j's own hook would stop logging before that.
        System.setProperty("log4j.shutdownHookEnabled", "false");
        Logger log = LoggerFactory.getLogger(FollowGraphProcessorMain.class);
        PinfeedConfig config = PinfeedConfig.load();
        GraphConnections connections = GraphConnections.open(config, GraphConnections.keyPrefix(config));
        FollowGraphProcessor.Settings settings = FollowGraphProcessor.Settings.from(config);
        FollowGraphProcessor processor = FollowGraphProcessor.create(settings,
                new CachingSchemaRegistryClient(new HttpSchemaRegistryClient(config.schemaRegistryUrl())), connections.store());
        Thread main = Thread.currentThread();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            processor.close();
            try {
                main.join(35_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "follower-graph-shutdown"));
        log.info("follower-graph processor: group {} on {}, dead letters to {}, redis shards {}, key prefix '{}'",
                settings.groupId(), settings.topics(), settings.deadLetterTopic(), connections.shards().get(),
                connections.store().keys().prefix());
        try {
            processor.run();
        } finally {
            connections.close();
            log.info("follower-graph processor stopped: {}", processor.stats());
        }
    }
}
