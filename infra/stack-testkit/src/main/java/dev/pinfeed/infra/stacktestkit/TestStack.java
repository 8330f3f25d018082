package dev.pinfeed.infra.stacktestkit;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.infra.stack.LocalStack;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What an integration test gets from {@link StackExtension}: the endpoints of the one shared stack
 * and helpers that keep tests apart on shared servers (fresh topic names, key prefixes, IDs).
 */
public final class TestStack {

    /** Distinguishes this test JVM's names from every earlier run's (the stack keeps its data). */
    private static final String RUN = Long.toString(System.currentTimeMillis(), 36);
    private static final AtomicLong COUNTER = new AtomicLong();
    private static final long ID_EPOCH_MS = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
    private static final AtomicLong LAST_ID = new AtomicLong();

    private final LocalStack stack;

    TestStack(LocalStack stack) {
        this.stack = stack;
    }

    public PinfeedConfig config() {
        return stack.config();
    }

    /** Starts, stops and restarts single servers of the shared stack (for durability tests). */
    public LocalStack servers() {
        return stack;
    }

    /** A Kafka topic name no other test or run uses: {@code it-<base>-<run>-<n>}. */
    public String uniqueTopic(String base) {
        return "it-" + base + "-" + RUN + "-" + COUNTER.incrementAndGet();
    }

    /** A name for tables, databases, subjects, znodes: lower-case letters, digits and underscores. */
    public String uniqueName(String base) {
        return (base + "_" + RUN + "_" + COUNTER.incrementAndGet()).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
    }

    /** A Redis / HBase key prefix no other test or run uses, ending in ':'. */
    public String keyPrefix(String base) {
        return "it:" + base + ":" + RUN + "-" + COUNTER.incrementAndGet() + ":";
    }

    /**
     * A positive long never returned before on this machine (milliseconds since 2026 shifted left
     * 12 bits, bumped within a millisecond): fresh user/board IDs for tests over persistent data.
     */
    public long freshId() {
        long candidate = (System.currentTimeMillis() - ID_EPOCH_MS) << 12;
        return LAST_ID.accumulateAndGet(candidate, (last, next) -> Math.max(last + 1, next));
    }
}
