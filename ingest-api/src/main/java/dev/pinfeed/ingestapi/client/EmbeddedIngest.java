package dev.pinfeed.ingestapi.client;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.ingestapi.IngestComponents;
import dev.pinfeed.ingestapi.core.IngestCommand;
import dev.pinfeed.ingestapi.core.IngestService;
import dev.pinfeed.ingestapi.core.IngestService.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The ingest pipeline embedded in the caller's process: typed commands ({@link IngestCommand}
 * validates on construction, with the same rules as the HTTP API) go through the same
 * {@link IngestService} as ingest-api's (ID assignment, username index, directory checks) straight
 * onto Kafka, without HTTP. It therefore needs what ingest-api needs: credentials for the MySQL shard
 * hosts, Kafka, the schema registry and ZooKeeper. Producers that should not hold those use the
 * HTTP API, from Java through {@link PinfeedHttpClient}.
 *
 * <p>{@link #send} queues a command; a dispatcher thread groups queued commands into batches of at
 * most {@code maxBatch} (waiting up to {@code linger} for more) and completes each future with the
 * command's outcome once Kafka acknowledged. Failures that happen before anything is published
 * (OVERLOADED, UNAVAILABLE) are retried with exponential backoff; UNCONFIRMED is not, because the
 * event may already be in the log. A bug fails the futures of its batch with the exception.
 */
public final class EmbeddedIngest implements AutoCloseable {

    private record Pending(IngestCommand command, CompletableFuture<Outcome> result) {}

    /** Processes one batch: {@link IngestService#submitAll}. */
    @FunctionalInterface
    public interface BatchSubmitter {
        List<Outcome> submitAll(List<? extends IngestCommand> batch);
    }

    private final BatchSubmitter service;
    private final AutoCloseable owned;
    private final int maxBatch;
    private final Duration linger;
    private final int maxRetries;
    private final Duration firstBackoff;
    private final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private final Thread dispatcher;
    private volatile boolean closing;

    public EmbeddedIngest(BatchSubmitter service, AutoCloseable owned, int maxBatch, Duration linger, int maxRetries, Duration firstBackoff) {
        if (maxBatch < 1) throw new IllegalArgumentException("maxBatch must be >= 1");
        this.service = service;
        this.owned = owned;
        this.maxBatch = maxBatch;
        this.linger = linger;
        this.maxRetries = maxRetries;
        this.firstBackoff = firstBackoff;
        this.dispatcher = new Thread(this::dispatch, "embedded-ingest");
        this.dispatcher.setDaemon(true);
        this.dispatcher.start();
    }

    /** The pipeline on the stores {@code config} names: batches of up to 1000, 5 ms linger, 5 retries from 100 ms. */
    public static EmbeddedIngest create(PinfeedConfig config) {
        IngestComponents components = IngestComponents.fromConfig(config);
        return new EmbeddedIngest(components.service()::submitAll, components, 1000, Duration.ofMillis(5), 5, Duration.ofMillis(100));
    }

    /** Queues {@code command}; the future completes with its outcome (accepted, or rejected with the reason). */
    public CompletableFuture<Outcome> send(IngestCommand command) {
        if (closing) throw new IllegalStateException("the producer is closed");
        CompletableFuture<Outcome> result = new CompletableFuture<>();
        queue.add(new Pending(command, result));
        return result;
    }

    /** Sends every command and waits for all outcomes, in order. */
    public List<Outcome> sendAll(List<? extends IngestCommand> commands) {
        List<CompletableFuture<Outcome>> futures = commands.stream().map(this::send).toList();
        return futures.stream().map(CompletableFuture::join).toList();
    }

    private void dispatch() {
        List<Pending> batch = new ArrayList<>(maxBatch);
        while (!closing || !queue.isEmpty()) {
            try {
                Pending first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) continue;
                batch.add(first);
                long deadline = System.nanoTime() + linger.toNanos();
                while (batch.size() < maxBatch) {
                    Pending next = queue.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    if (next == null) break;
                    batch.add(next);
                }
                submitWithRetries(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                for (Pending p : batch) p.result().completeExceptionally(e);
            } finally {
                batch.clear();
            }
        }
    }

    private void submitWithRetries(List<Pending> batch) throws InterruptedException {
        List<Pending> remaining = batch;
        long backoff = firstBackoff.toMillis();
        for (int attempt = 0; ; attempt++) {
            List<Outcome> outcomes = service.submitAll(remaining.stream().map(Pending::command).toList());
            List<Pending> retry = new ArrayList<>();
            for (int i = 0; i < remaining.size(); i++) {
                Outcome o = outcomes.get(i);
                if (!o.accepted() && o.rejection().retryable() && attempt < maxRetries) {
                    retry.add(remaining.get(i));
                } else {
                    remaining.get(i).result().complete(o);
                }
            }
            if (retry.isEmpty()) return;
            Thread.sleep(backoff);
            backoff *= 2;
            remaining = retry;
        }
    }

    /** Sends what is queued, then releases the connections this producer opened. */
    @Override
    public void close() {
        closing = true;
        try {
            dispatcher.join(60_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (owned != null) {
            try {
                owned.close();
            } catch (Exception ignored) {
                // nothing useful to do at close
            }
        }
    }
}
