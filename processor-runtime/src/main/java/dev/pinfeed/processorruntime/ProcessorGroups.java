package dev.pinfeed.processorruntime;

import dev.pinfeed.config.PinfeedConfig;

/**
 * The consumer groups of the processors others wait for, by the keys and defaults the processors themselves use: the
 * materializer's (the canonical store's writer) and the graph processor's (the follower graph's).
 */
public final class ProcessorGroups {

    public static final String MATERIALIZER = "pinfeed-materializer";
    public static final String FOLLOWER_GRAPH = "pinfeed-follower-graph";

    private ProcessorGroups() {}

    /** {@code materializer.group}, else {@value #MATERIALIZER}. */
    public static String materializer(PinfeedConfig config) {
        return config.get("materializer.group", MATERIALIZER);
    }

    /** {@code graph.processor.group}, else {@value #FOLLOWER_GRAPH}. */
    public static String followerGraph(PinfeedConfig config) {
        return config.get("graph.processor.group", FOLLOWER_GRAPH);
    }
}
