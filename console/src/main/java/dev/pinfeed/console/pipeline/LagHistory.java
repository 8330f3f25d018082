package dev.pinfeed.console.pipeline;

import dev.pinfeed.console.pipeline.PipelineSnapshot.LagPoint;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Each consumer group's lag over the last {@code window}, oldest first: a ring of at most {@code capacity} samples
 * per group, older ones dropped as time passes. A group missing from the samples (Kafka unreadable for a while, the
 * group deleted) keeps its history until its last sample is older than the window, then it is dropped.
 */
final class LagHistory {

    private record Sample(Instant at, long lag) {}

    private final Duration window;
    private final int capacity;
    private final Map<String, Deque<Sample>> byGroup = new HashMap<>();

    LagHistory(Duration window, int capacity) {
        if (capacity < 1) throw new IllegalArgumentException("capacity must be positive: " + capacity);
        this.window = window;
        this.capacity = capacity;
    }

    /** Adds the groups' lags sampled {@code at} and forgets what is older than the window. */
    synchronized void record(Instant at, Map<String, Long> lags) {
        lags.forEach((group, lag) -> {
            Deque<Sample> ring = byGroup.computeIfAbsent(group, g -> new ArrayDeque<>());
            if (ring.size() == capacity) ring.removeFirst();
            ring.addLast(new Sample(at, lag));
        });
        forgetBefore(at);
    }

    /** Forgets what is older than the window before {@code now} (a sample without lags still ages the history). */
    synchronized void forgetBefore(Instant now) {
        Instant oldest = now.minus(window);
        byGroup.values().forEach(ring -> {
            while (!ring.isEmpty() && ring.peekFirst().at().isBefore(oldest)) ring.removeFirst();
        });
        byGroup.values().removeIf(Deque::isEmpty);
    }

    synchronized List<LagPoint> of(String group) {
        List<LagPoint> points = new ArrayList<>();
        for (Sample s : byGroup.getOrDefault(group, new ArrayDeque<>())) points.add(new LagPoint(s.at().toString(), s.lag()));
        return points;
    }

    synchronized Set<String> groups() {
        return new TreeSet<>(byGroup.keySet());
    }
}
