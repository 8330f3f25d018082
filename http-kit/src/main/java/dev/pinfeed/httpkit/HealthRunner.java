package dev.pinfeed.httpkit;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs the health checks in parallel under one deadline. A check still running from an earlier call (it hung
 * past the timeout) is awaited again rather than started twice, so a hung dependency costs one thread, not one
 * per probe.
 */
final class HealthRunner {

    record NamedCheck(String name, HealthCheck check) {
    }

    private record Slot(NamedCheck check, AtomicReference<Future<?>> running) {
    }

    private final List<Slot> slots;
    private final Duration timeout;
    private final ThreadPoolExecutor pool;

    HealthRunner(String serviceName, List<NamedCheck> checks, Duration timeout) {
        this.slots = checks.stream().map(c -> new Slot(c, new AtomicReference<Future<?>>())).toList();
        this.timeout = timeout;
        AtomicInteger threads = new AtomicInteger();
        int size = Math.max(1, checks.size());
        this.pool = new ThreadPoolExecutor(size, size, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, serviceName + "-health-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        pool.allowCoreThreadTimeOut(true);
    }

    Response run() {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, Future<?>> futures = new LinkedHashMap<>();
        for (Slot slot : slots) {
            futures.put(slot.check().name(), slot.running().updateAndGet(f -> f != null && !f.isDone() ? f
                    : pool.submit(() -> {
                        slot.check().check().check();
                        return null;
                    })));
        }
        Map<String, String> states = new LinkedHashMap<>();
        StringBuilder failures = new StringBuilder();
        for (Map.Entry<String, Future<?>> e : futures.entrySet()) {
            String reason;
            try {
                e.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                reason = null;
            } catch (TimeoutException ex) {
                reason = "timed out after " + timeout.toMillis() + " ms";
            } catch (ExecutionException ex) {
                reason = reason(ex.getCause());
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                reason = "interrupted";
            } catch (RuntimeException ex) {
                reason = reason(ex);
            }
            if (reason == null) {
                states.put(e.getKey(), "up");
            } else {
                states.put(e.getKey(), "down: " + reason);
                failures.append(failures.length() == 0 ? "" : "; ").append(e.getKey()).append(": ").append(reason);
            }
        }
        if (failures.length() == 0) {
            return Response.json(200, Response.ordered("status", "up", "checks", states));
        }
        return Response.problem(Problem.dependencyDown(failures.toString()), Map.of("checks", states));
    }

    private static String reason(Throwable t) {
        if (t == null) {
            return "failed";
        }
        String message = Json.oneLine(t.getMessage(), 200);
        return message.isEmpty() ? t.getClass().getSimpleName() : message;
    }
}
