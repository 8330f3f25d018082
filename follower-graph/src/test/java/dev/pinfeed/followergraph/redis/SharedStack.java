package dev.pinfeed.followergraph.redis;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.infra.stack.LocalStack;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The shared stack for jqwik properties, which cannot take JUnit extensions: attaches to the running
 * stack as {@code StackExtension} does (starting what is down, stopping that at JVM exit), and hands
 * out key prefixes of the same form as {@code TestStack.keyPrefix}.
 */
final class SharedStack {

    private static final String RUN = Long.toString(System.currentTimeMillis(), 36);
    private static final AtomicLong COUNTER = new AtomicLong();
    private static PinfeedConfig config;

    private SharedStack() {}

    static synchronized PinfeedConfig config() {
        if (config == null) {
            LocalStack local = LocalStack.fromEnvironment(line -> System.err.println("[pinfeed-test] " + line));
            if (!local.unhealthy().isEmpty()) {
                try {
                    List<String> started = local.start();
                    Runtime.getRuntime().addShutdownHook(new Thread(() -> local.stop(started)));
                } catch (Exception e) {
                    throw new IllegalStateException("cannot start the shared test stack: " + e.getMessage(), e);
                }
            }
            config = local.config();
        }
        return config;
    }

    static String keyPrefix(String base) {
        return "it:" + base + ":" + RUN + "-j" + COUNTER.incrementAndGet() + ":";
    }
}
