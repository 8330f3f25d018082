package dev.pinfeed.infra.stack;

import dev.pinfeed.config.PinfeedConfig;
import java.util.List;

/**
 * The garbage collector of the stack's own JVMs: the apps, the Kafka broker and the schema registry, by
 * {@value #KEY} ({@code g1} by default, what the distributions ship), an app also by {@code <app>.collector}.
 * The serial collector's own structures take about 1 MB where G1's take 40-50 MB of a 256 MB heap's JVM, and it keeps
 * the heap committed near what is live; with 19 processes on one box under {@code ./pinfeed dev} that is 0.4 GB
 * (docs/benchmarks.md, "dev stack memory"). The HBase servers keep G1: their heaps hold the memstores and the block
 * cache, whose old generation the serial collector would compact in one pause.
 */
enum JvmCollector {
    G1("g1", "-XX:+UseG1GC"),
    SERIAL("serial", "-XX:+UseSerialGC");

    static final String KEY = "stack.collector";

    private final String configName;
    private final String flag;

    JvmCollector(String configName, String flag) {
        this.configName = configName;
        this.flag = flag;
    }

    /** The flag that selects it on a command line that selects no collector. */
    String flag() {
        return flag;
    }

    /** The flags that select it after an app distribution's conf/jvm.options, which selects G1. */
    List<String> overDistributionDefault() {
        return this == G1 ? List.of() : List.of("-XX:-UseG1GC", flag);
    }

    /** The collector of the stack's broker and registry: {@value #KEY}. */
    static JvmCollector of(PinfeedConfig config) {
        return parse(config, KEY);
    }

    /** An app's: {@code <app>.collector}, else {@value #KEY}. */
    static JvmCollector ofApp(PinfeedConfig config, String app) {
        String own = app + ".collector";
        return parse(config, config.find(own).isPresent() ? own : KEY);
    }

    private static JvmCollector parse(PinfeedConfig config, String key) {
        String value = config.get(key, G1.configName);
        for (JvmCollector c : values()) {
            if (c.configName.equals(value)) return c;
        }
        throw new IllegalArgumentException(key + " must be g1 or serial: '" + value + "'");
    }
}
