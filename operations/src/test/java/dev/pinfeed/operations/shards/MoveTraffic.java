package dev.pinfeed.operations.shards;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Two writers and a reader running while a shard move runs, as the services would: what was acknowledged
 * (an id and its value), the writers' latencies, retries, and every write that gave up or read that failed.
 * A subclass says what one write and one read of an acknowledged entry are.
 */
abstract class MoveTraffic<V> implements AutoCloseable {

    /** One attempt of a write. */
    @FunctionalInterface
    interface Write {
        void run() throws Exception;
    }

    final Map<Long, V> acknowledged = new ConcurrentHashMap<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
    private final List<String> failures = Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong retries = new AtomicLong();
    private final List<Thread> threads = new ArrayList<>();

    /** Starts the writers and the reader (threads named after {@code name}); the subclass's constructor calls it last. */
    final void start(String name) {
        for (int i = 0; i < 2; i++) threads.add(daemon(() -> { while (running.get()) writeOne(); }, name + "-writer-" + i));
        threads.add(daemon(this::readLoop, name + "-reader"));
    }

    /** One write: {@link #acknowledgeAfter} with a fresh id. */
    abstract void writeOne();

    /** One read of an acknowledged entry; what is wrong goes to {@link #fail}. */
    abstract void readOne(Map.Entry<Long, V> entry);

    /**
     * Runs {@code write} until it succeeds, retrying (50 times, 20 ms apart) what {@code retryable} accepts, as the
     * processors retry what the store reports unavailable; then {@code id} → {@code value} is acknowledged.
     */
    final void acknowledgeAfter(long id, V value, Write write, Predicate<Exception> retryable) {
        long start = System.nanoTime();
        for (int attempt = 1; ; attempt++) {
            try {
                write.run();
                acknowledged.put(id, value);
                latencies.add((System.nanoTime() - start) / 1_000_000);
                return;
            } catch (Exception e) {
                if (!retryable.test(e) || attempt == 50) {
                    fail("write " + id + " (" + value + "): " + e.getMessage());
                    return;
                }
                retries.incrementAndGet();
                sleep(20);
            }
        }
    }

    final void fail(String what) {
        failures.add(what);
    }

    private void readLoop() {
        while (running.get()) {
            List<Map.Entry<Long, V>> sample = new ArrayList<>(acknowledged.entrySet());
            if (sample.isEmpty()) {
                sleep(5);
                continue;
            }
            readOne(sample.get(ThreadLocalRandom.current().nextInt(sample.size())));
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    void awaitAcknowledged(long n) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (acknowledged.size() < n && System.nanoTime() < deadline && failures.isEmpty()) Thread.sleep(10);
    }

    long acknowledged() {
        return acknowledged.size();
    }

    List<String> failures() {
        return List.copyOf(failures);
    }

    long maxLatencyMillis() {
        return latencies.stream().mapToLong(Long::longValue).max().orElse(0);
    }

    String report() {
        long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
        return String.format("%d writes acknowledged, %d retries, latency p50 %d ms, p99 %d ms, max %d ms", sorted.length, retries.get(),
                sorted[sorted.length / 2], sorted[(int) (sorted.length * 0.99)], sorted[sorted.length - 1]);
    }

    void stop() throws InterruptedException {
        running.set(false);
        for (Thread t : threads) t.join(30_000);
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
