package dev.pinfeed.feedservice;

import dev.pinfeed.config.PinfeedConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ExecutorServiceMetrics;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The home feed's threads: generations run beside the request thread, and their sources' pool reads
 * beside each other (as many threads as requests need, idle ones retire: nothing queues, so a
 * generation waiting on its reads cannot starve them); post-answer writes run on
 * {@code feed.after-answer-threads} (8: they wait on HBase round trips, and two fell behind a loaded box's pages) behind a bounded queue ({@code feed.after-answer-queue},
 * 10000). A full queue refuses the work (the journal, or the next view, redoes it). Closing drains
 * the queue for up to 10 s.
 */
public final class HomeFeedThreads implements AutoCloseable {

    private final ExecutorService generation;
    private final ExecutorService afterAnswer;

    public HomeFeedThreads(int afterAnswerThreads, int afterAnswerQueue) {
        this.generation = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), named("feed-generator"));
        this.afterAnswer = new ThreadPoolExecutor(afterAnswerThreads, afterAnswerThreads, 0, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(afterAnswerQueue), named("feed-after-answer"), new ThreadPoolExecutor.AbortPolicy());
    }

    public static HomeFeedThreads from(PinfeedConfig config) {
        return new HomeFeedThreads(config.getInt("feed.after-answer-threads", 8), config.getInt("feed.after-answer-queue", 10_000));
    }

    /**
     * Exports both pools as Micrometer's executor meters ({@code executor_queued_tasks},
     * {@code executor_active_threads}, ... tagged {@code name=feed-generator} / {@code feed-after-answer}): the
     * post-answer queue's depth says how far the chunk saves and pool removals trail the answers.
     */
    public HomeFeedThreads bindTo(MeterRegistry registry) {
        new ExecutorServiceMetrics(generation, "feed-generator", List.of()).bindTo(registry);
        new ExecutorServiceMetrics(afterAnswer, "feed-after-answer", List.of()).bindTo(registry);
        return this;
    }

    public ExecutorService generation() {
        return generation;
    }

    public ExecutorService afterAnswer() {
        return afterAnswer;
    }

    /** Waits until the post-answer work queued so far is done (tests, benchmarks); false on timeout. */
    public boolean drain(long timeoutMillis) throws InterruptedException {
        int threads = ((ThreadPoolExecutor) afterAnswer).getMaximumPoolSize();
        CountDownLatch arrived = new CountDownLatch(threads);
        // One marker per thread, each holding its thread until all arrived: then every task queued before them has finished.
        for (int i = 0; i < threads; i++) {
            afterAnswer.execute(() -> {
                arrived.countDown();
                try {
                    arrived.await(timeoutMillis, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        return arrived.await(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        generation.shutdownNow();
        afterAnswer.shutdown();
        afterAnswer.awaitTermination(10, TimeUnit.SECONDS);
    }

    private static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
