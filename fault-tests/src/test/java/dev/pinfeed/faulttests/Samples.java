package dev.pinfeed.faulttests;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;

/** Every call of a background load: when it started, how long it took, how it ended. Thread-safe. */
final class Samples {

    /** One call; {@code status} is the HTTP status, or {@link #FAILED} when no answer came (connection error, timeout). */
    record Sample(long startNanos, long latencyNanos, int status, String detail) {
        boolean ok(int expected) {
            return status == expected;
        }
    }

    static final int FAILED = -1;

    /** What one call answered: the status, and the body when it is not the expected one (to check which store a 503 names). */
    record Result(int status, String detail) {
        static Result of(int status, int expected, String body) {
            return new Result(status, status == expected ? null : body);
        }
    }

    private final ConcurrentLinkedQueue<Sample> all = new ConcurrentLinkedQueue<>();

    void add(long startNanos, int status, String detail) {
        all.add(new Sample(startNanos, System.nanoTime() - startNanos, status, detail));
    }

    /** The calls started in [from, to). */
    List<Sample> startedBetween(long from, long to) {
        return all.stream().filter(s -> s.startNanos() >= from && s.startNanos() < to).toList();
    }

    List<Sample> all() {
        return new ArrayList<>(all);
    }

    static long count(List<Sample> samples, int status) {
        return samples.stream().filter(s -> s.status() == status).count();
    }

    /** The nearest-rank percentile of the latencies, in ms (0 for no samples). */
    static double percentileMs(List<Sample> samples, double percentile) {
        if (samples.isEmpty()) return 0;
        long[] sorted = samples.stream().mapToLong(Sample::latencyNanos).sorted().toArray();
        int rank = (int) Math.ceil(percentile / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)] / 1e6;
    }

    static double maxMs(List<Sample> samples) {
        return samples.stream().mapToLong(Sample::latencyNanos).max().orElse(0) / 1e6;
    }

    /** "200×812 503×3 -1×1": the statuses seen, for messages. */
    static String histogram(List<Sample> samples) {
        java.util.TreeMap<Integer, Integer> counts = new java.util.TreeMap<>();
        samples.forEach(s -> counts.merge(s.status(), 1, Integer::sum));
        StringBuilder b = new StringBuilder();
        counts.forEach((k, v) -> b.append(String.format(Locale.ROOT, "%d×%d ", k, v)));
        return b.toString().trim();
    }
}
