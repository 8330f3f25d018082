package dev.pinfeed.httpkit;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;
import java.util.regex.Pattern;

/**
 * A tiny thread-safe metrics registry rendering the Prometheus text exposition format 0.0.4. Registering a
 * counter or histogram again with the same name, type and labels returns the existing one.
 */
public final class Metrics {

    /** The Content-Type of {@link #scrape()}. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final Comparator<List<String>> LABEL_ORDER = (a, b) -> {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    };

    private final Map<String, Family> families = new LinkedHashMap<>();

    public Counter counter(String name, String help, String... labelNames) {
        return register(new Counter(name, help, labelNames), Counter.class);
    }

    /** A histogram; {@code bucketsSeconds} are the finite upper bounds, strictly increasing ({@code +Inf} is implied). */
    public Histogram histogram(String name, String help, double[] bucketsSeconds, String... labelNames) {
        Histogram histogram = register(new Histogram(name, help, bucketsSeconds, labelNames), Histogram.class);
        if (!Arrays.equals(histogram.bounds, Histogram.bounds(bucketsSeconds))) {
            throw new IllegalArgumentException("histogram " + name + " already registered with other buckets");
        }
        return histogram;
    }

    /** An unlabelled gauge read from {@code value} at scrape time. */
    public Gauge gauge(String name, String help, DoubleSupplier value) {
        return gauge(name, help, Map.of(), value);
    }

    /**
     * A labelled gauge sample read from {@code value} at scrape time. Samples of one name share help and label
     * names; registering the same label values again replaces the supplier.
     */
    public Gauge gauge(String name, String help, Map<String, String> labels, DoubleSupplier value) {
        Objects.requireNonNull(value, "value");
        Map<String, String> sorted = new java.util.TreeMap<>(labels);
        GaugeFamily family = register(new GaugeFamily(name, help, sorted.keySet().toArray(String[]::new)), GaugeFamily.class);
        List<String> values = List.copyOf(sorted.values());
        Gauge gauge = new Gauge(value);
        family.children.put(values, gauge);
        return gauge;
    }

    /** The Prometheus text exposition (format 0.0.4) of every registered metric. */
    public String scrape() {
        List<Family> snapshot;
        synchronized (families) {
            snapshot = new ArrayList<>(families.values());
        }
        StringBuilder out = new StringBuilder(4096);
        for (Family family : snapshot) {
            out.append("# HELP ").append(family.name).append(' ').append(escapeHelp(family.help)).append('\n');
            out.append("# TYPE ").append(family.name).append(' ').append(family.type()).append('\n');
            family.write(out);
        }
        return out.toString();
    }

    private <T extends Family> T register(T candidate, Class<T> type) {
        synchronized (families) {
            Family existing = families.get(candidate.name);
            if (existing == null) {
                families.put(candidate.name, candidate);
                return candidate;
            }
            if (!type.isInstance(existing) || !existing.labelNames.equals(candidate.labelNames)) {
                throw new IllegalArgumentException("metric " + candidate.name + " already registered as "
                        + existing.type() + existing.labelNames);
            }
            return type.cast(existing);
        }
    }

    /** Shared by all metric kinds: name, help, label names and per-label-values children. */
    private abstract static class Family {
        final String name;
        final String help;
        final List<String> labelNames;

        Family(String name, String help, String[] labelNames, boolean histogram) {
            if (name == null || !METRIC_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("invalid metric name: " + name);
            }
            this.name = name;
            this.help = Objects.requireNonNull(help, "help");
            for (String label : labelNames) {
                if (label == null || !LABEL_NAME.matcher(label).matches() || label.startsWith("__")
                        || (histogram && label.equals("le"))) {
                    throw new IllegalArgumentException("invalid label name for " + name + ": " + label);
                }
            }
            if (Arrays.stream(labelNames).distinct().count() != labelNames.length) {
                throw new IllegalArgumentException("duplicate label names for " + name);
            }
            this.labelNames = List.of(labelNames);
        }

        abstract String type();

        abstract void write(StringBuilder out);

        List<String> key(String[] labelValues) {
            if (labelValues.length != labelNames.size()) {
                throw new IllegalArgumentException(name + " expects " + labelNames.size() + " label values "
                        + labelNames + ", got " + labelValues.length);
            }
            for (String value : labelValues) {
                Objects.requireNonNull(value, "label value");
            }
            return List.of(labelValues);
        }

        /** {@code name{a="x",b="y"}}, with {@code extraLabel} (e.g. {@code le}) appended when non-null. */
        void sampleName(StringBuilder out, String suffix, List<String> values, String extraLabel, String extraValue) {
            out.append(name).append(suffix);
            if (values.isEmpty() && extraLabel == null) {
                return;
            }
            out.append('{');
            for (int i = 0; i < values.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                out.append(labelNames.get(i)).append("=\"").append(escapeLabelValue(values.get(i))).append('"');
            }
            if (extraLabel != null) {
                if (!values.isEmpty()) {
                    out.append(',');
                }
                out.append(extraLabel).append("=\"").append(extraValue).append('"');
            }
            out.append('}');
        }
    }

    /** A monotonically increasing count, per label values. */
    public static final class Counter extends Family {
        private final ConcurrentMap<List<String>, LongAdder> children = new ConcurrentHashMap<>();

        private Counter(String name, String help, String[] labelNames) {
            super(name, help, labelNames, false);
            if (labelNames.length == 0) {
                children.put(List.of(), new LongAdder());
            }
        }

        public void inc(String... labelValues) {
            inc(1, labelValues);
        }

        public void inc(long n, String... labelValues) {
            if (n < 0) {
                throw new IllegalArgumentException("a counter only goes up: " + n);
            }
            children.computeIfAbsent(key(labelValues), k -> new LongAdder()).add(n);
        }

        /** The current count for these label values (0 when never incremented). */
        public long value(String... labelValues) {
            LongAdder adder = children.get(key(labelValues));
            return adder == null ? 0 : adder.sum();
        }

        @Override
        String type() {
            return "counter";
        }

        @Override
        void write(StringBuilder out) {
            children.entrySet().stream().sorted(Map.Entry.comparingByKey(LABEL_ORDER)).forEach(e -> {
                sampleName(out, "", e.getKey(), null, null);
                out.append(' ').append(e.getValue().sum()).append('\n');
            });
        }
    }

    /** Observations counted into cumulative {@code le} buckets, with their sum and count, per label values. */
    public static final class Histogram extends Family {
        private final double[] bounds;
        private final String[] boundLabels;
        private final ConcurrentMap<List<String>, Child> children = new ConcurrentHashMap<>();

        private Histogram(String name, String help, double[] buckets, String[] labelNames) {
            super(name, help, labelNames, true);
            this.bounds = bounds(buckets);
            this.boundLabels = Arrays.stream(bounds).mapToObj(Metrics::formatDouble).toArray(String[]::new);
            if (labelNames.length == 0) {
                children.put(List.of(), new Child(bounds.length));
            }
        }

        static double[] bounds(double[] buckets) {
            Objects.requireNonNull(buckets, "buckets");
            double[] b = buckets.length > 0 && buckets[buckets.length - 1] == Double.POSITIVE_INFINITY
                    ? Arrays.copyOf(buckets, buckets.length - 1) : buckets.clone();
            if (b.length == 0) {
                throw new IllegalArgumentException("a histogram needs at least one finite bucket");
            }
            for (int i = 0; i < b.length; i++) {
                if (!Double.isFinite(b[i]) || (i > 0 && b[i] <= b[i - 1])) {
                    throw new IllegalArgumentException("buckets must be finite and strictly increasing: "
                            + Arrays.toString(buckets));
                }
            }
            return b;
        }

        public void observe(double seconds, String... labelValues) {
            if (Double.isNaN(seconds)) {
                return;
            }
            Child child = children.computeIfAbsent(key(labelValues), k -> new Child(bounds.length));
            int i = Arrays.binarySearch(bounds, seconds);
            int bucket = i >= 0 ? i : -i - 1; // the first bound >= seconds; bounds.length = +Inf
            child.buckets[bucket].increment();
            child.sum.add(seconds);
        }

        /** The number of observations for these label values. */
        public long count(String... labelValues) {
            Child child = children.get(key(labelValues));
            return child == null ? 0 : Arrays.stream(child.buckets).mapToLong(LongAdder::sum).sum();
        }

        @Override
        String type() {
            return "histogram";
        }

        @Override
        void write(StringBuilder out) {
            children.entrySet().stream().sorted(Map.Entry.comparingByKey(LABEL_ORDER)).forEach(e -> {
                Child child = e.getValue();
                long cumulative = 0;
                for (int i = 0; i <= bounds.length; i++) {
                    cumulative += child.buckets[i].sum();
                    sampleName(out, "_bucket", e.getKey(), "le", i < bounds.length ? boundLabels[i] : "+Inf");
                    out.append(' ').append(cumulative).append('\n');
                }
                sampleName(out, "_sum", e.getKey(), null, null);
                out.append(' ').append(formatDouble(child.sum.sum())).append('\n');
                sampleName(out, "_count", e.getKey(), null, null);
                out.append(' ').append(cumulative).append('\n');
            });
        }

        private static final class Child {
            final LongAdder[] buckets;
            final DoubleAdder sum = new DoubleAdder();

            Child(int bounds) {
                buckets = new LongAdder[bounds + 1];
                Arrays.setAll(buckets, i -> new LongAdder());
            }
        }
    }

    /** A value read at scrape time. */
    public static final class Gauge {
        private final DoubleSupplier supplier;

        private Gauge(DoubleSupplier supplier) {
            this.supplier = supplier;
        }

        public double value() {
            return supplier.getAsDouble();
        }
    }

    private static final class GaugeFamily extends Family {
        final ConcurrentMap<List<String>, Gauge> children = new ConcurrentHashMap<>();

        GaugeFamily(String name, String help, String[] labelNames) {
            super(name, help, labelNames, false);
        }

        @Override
        String type() {
            return "gauge";
        }

        @Override
        void write(StringBuilder out) {
            children.entrySet().stream().sorted(Map.Entry.comparingByKey(LABEL_ORDER)).forEach(e -> {
                double value;
                try {
                    value = e.getValue().value();
                } catch (RuntimeException ex) {
                    value = Double.NaN;
                }
                sampleName(out, "", e.getKey(), null, null);
                out.append(' ').append(formatDouble(value)).append('\n');
            });
        }
    }

    static String escapeLabelValue(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    static String escapeHelp(String help) {
        return help.replace("\\", "\\\\").replace("\n", "\\n");
    }

    /** Go-style float text: {@code 1.0}, {@code 0.0005}, {@code +Inf}, {@code NaN}. */
    static String formatDouble(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "+Inf" : "-Inf";
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return (long) d + ".0";
        }
        double abs = Math.abs(d);
        if (abs >= 1e-6 && abs < 1e15) {
            return new BigDecimal(Double.toString(d)).stripTrailingZeros().toPlainString();
        }
        return Double.toString(d);
    }
}
