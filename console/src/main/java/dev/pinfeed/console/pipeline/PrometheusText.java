package dev.pinfeed.console.pipeline;

import java.util.OptionalDouble;

/** Reads a value out of the Prometheus text format an admin endpoint's {@code /metrics} serves. */
final class PrometheusText {

    private PrometheusText() {}

    /** The sum of every series of {@code metric} (any labels), or empty when the text has none. */
    static OptionalDouble sum(String text, String metric) {
        double sum = 0;
        boolean found = false;
        for (String line : text.split("\n")) {
            if (!line.startsWith(metric)) continue;
            String rest = line.substring(metric.length());
            int end;
            if (rest.startsWith("{")) {
                end = rest.lastIndexOf('}');
                if (end < 0) continue;
                end++;
            } else if (rest.startsWith(" ")) {
                end = 0;
            } else {
                continue; // another metric sharing the prefix (fanout_jobs_pending_total)
            }
            String[] value = rest.substring(end).trim().split("\\s+"); // value, then an optional timestamp
            try {
                sum += Double.parseDouble(value[0]);
                found = true;
            } catch (NumberFormatException e) {
                // Not a sample line: skip it.
            }
        }
        return found ? OptionalDouble.of(sum) : OptionalDouble.empty();
    }
}
