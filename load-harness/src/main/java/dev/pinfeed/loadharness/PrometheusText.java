package dev.pinfeed.loadharness;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A service's {@code /metrics} page (the Prometheus text format 0.0.4) as samples, so a harness can read a
 * service that runs in its own JVM: counters, gauges and a histogram's buckets, selected by name and labels.
 */
final class PrometheusText {

    record Sample(String name, Map<String, String> labels, double value) {
        boolean has(Map<String, String> wanted) {
            return labels.entrySet().containsAll(wanted.entrySet());
        }
    }

    /** One cumulative histogram bucket: how many observations were at most {@code le} (the unit of the metric). */
    record Bucket(double le, double count) {}

    private final List<Sample> samples;

    private PrometheusText(List<Sample> samples) {
        this.samples = samples;
    }

    /** Parses an exposition; a line that is neither a comment nor a sample fails with the line. */
    static PrometheusText parse(String exposition) {
        List<Sample> samples = new ArrayList<>();
        for (String line : exposition.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) continue;
            try {
                samples.add(sample(line));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("not a Prometheus sample: " + line, e);
            }
        }
        return new PrometheusText(samples);
    }

    /** The sum of the samples named {@code name} that carry every label of {@code labels}; 0 when there is none. */
    double sum(String name, Map<String, String> labels) {
        double sum = 0;
        for (Sample s : samples) if (s.name().equals(name) && s.has(labels)) sum += s.value();
        return sum;
    }

    /** The histogram's buckets ({@code name_bucket}) whose series carry {@code labels}, summed per bound, smallest bound first. */
    List<Bucket> buckets(String histogram, Map<String, String> labels) {
        Map<Double, Double> byBound = new LinkedHashMap<>();
        for (Sample s : samples) {
            if (!s.name().equals(histogram + "_bucket") || !s.has(labels)) continue;
            String le = s.labels().get("le");
            byBound.merge(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le), s.value(), Double::sum);
        }
        List<Bucket> out = new ArrayList<>();
        byBound.forEach((le, count) -> out.add(new Bucket(le, count)));
        out.sort(Comparator.comparingDouble(Bucket::le));
        return out;
    }

    /** {@code name{label="value",...} value [timestamp]}; label values may hold braces, commas and escapes. */
    private static Sample sample(String line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ') i++;
        String name = line.substring(0, i);
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < line.length() && line.charAt(i) == '{') {
            i++;
            while (line.charAt(i) != '}') {
                int eq = line.indexOf('=', i);
                String label = line.substring(i, eq).trim();
                if (line.charAt(eq + 1) != '"') throw new IllegalArgumentException("label value not quoted");
                StringBuilder value = new StringBuilder();
                int j = eq + 2;
                for (char c = line.charAt(j); c != '"'; c = line.charAt(++j)) {
                    if (c == '\\') {
                        char escaped = line.charAt(++j);
                        value.append(escaped == 'n' ? '\n' : escaped);
                    } else {
                        value.append(c);
                    }
                }
                labels.put(label, value.toString());
                i = j + 1;
                if (line.charAt(i) == ',') i++;
            }
            i++;
        }
        String[] rest = line.substring(i).trim().split(" ");
        return new Sample(name, labels, parseValue(rest[0]));
    }

    private static double parseValue(String v) {
        return switch (v) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(v);
        };
    }
}
