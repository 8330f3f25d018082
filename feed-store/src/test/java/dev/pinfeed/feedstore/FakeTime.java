package dev.pinfeed.feedstore;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.LongSupplier;

/**
 * A nanosecond clock that moves only when a test says so, and a {@link SpeculativeReads.Scheduler} on
 * it: {@link #advance} runs the tasks that fall due, on the advancing thread, in due order.
 */
public final class FakeTime implements LongSupplier, SpeculativeReads.Scheduler {

    private record Task(long due, long seq, Runnable run, boolean[] cancelled) {}

    private final PriorityQueue<Task> tasks = new PriorityQueue<>(Comparator.comparingLong(Task::due).thenComparingLong(Task::seq));
    private long now;
    private long seq;

    @Override
    public synchronized long getAsLong() {
        return now;
    }

    @Override
    public synchronized Runnable schedule(Runnable task, long delayNanos) {
        boolean[] cancelled = {false};
        tasks.add(new Task(now + delayNanos, seq++, task, cancelled));
        notifyAll();
        return () -> {
            synchronized (FakeTime.this) {
                cancelled[0] = true;
            }
        };
    }

    /** Moves the clock by {@code nanos}, running every task due by then. */
    public void advance(long nanos) {
        long target;
        synchronized (this) {
            target = now + nanos;
        }
        while (true) {
            Task next;
            synchronized (this) {
                next = tasks.peek();
                if (next == null || next.due() > target) {
                    now = target;
                    return;
                }
                tasks.poll();
                now = Math.max(now, next.due());
                if (next.cancelled()[0]) continue;
            }
            next.run().run();
        }
    }

    /** Waits (no time limit of its own: the test's timeout applies) until {@code n} live tasks are scheduled. */
    public synchronized void awaitScheduled(int n) throws InterruptedException {
        while (live().size() < n) wait(10);
    }

    private List<Task> live() {
        List<Task> out = new ArrayList<>();
        for (Task t : tasks) if (!t.cancelled()[0]) out.add(t);
        return out;
    }
}
