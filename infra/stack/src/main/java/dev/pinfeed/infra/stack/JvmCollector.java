package dev.pinfeed.infra.stack;

import dev.pinfeed.config.PinfeedConfig;
import java.util.List;

/**
 * A JVM's garbage collector. An app's: {@code <app>.collector}, else {@value #KEY}, else {@code g1} (what the distributions
 * ship). Of the local stack's servers, the schema registry (a few subjects in memory) runs the serial collector, the others G1.
 * The serial collector's own structures take about 1 MB where G1's take 40-50 MB of a 256 MB heap's JVM, and it keeps
 * the heap committed near what is live where G1 lets it grow to its maximum: under {@code ./pinfeed dev}, with 19
 * processes on one box, the feed-service held 438 MB after the soak on it against 736 MB on G1
 * (docs/benchmarks.md, "the apps on the serial collector"). feed-worker and fanout-streams stay on G1 there: their
 * heaps fill under a backlog either way, and feed-worker's full collections then took 0.4 s each.
 */
enum JvmCollector {
    G1("g1"),
    SERIAL("serial");

    static final String KEY = "stack.apps.collector";

    private final String configName;

    JvmCollector(String configName) {
        this.configName = configName;
    }

    /** The flag that selects it on a JVM's command line. */
    String flag() {
        return this == G1 ? "-XX:+UseG1GC" : "-XX:+UseSerialGC";
    }

    /** The flags that select it after an app distribution's conf/jvm.options, which selects G1. */
    List<String> overDistributionDefault() {
        return this == G1 ? List.of() : List.of("-XX:-UseG1GC", flag());
    }

    /** An app's: {@code <app>.collector}, else {@value #KEY}. */
    static JvmCollector ofApp(PinfeedConfig config, String app) {
        String own = app + ".collector";
        String key = config.find(own).isPresent() ? own : KEY;
        String value = config.get(key, G1.configName);
        for (JvmCollector c : values()) {
            if (c.configName.equals(value)) return c;
        }
        throw new IllegalArgumentException(key + " must be g1 or serial: '" + value + "'");
    }
}
