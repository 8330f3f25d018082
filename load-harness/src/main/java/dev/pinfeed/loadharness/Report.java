package dev.pinfeed.loadharness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** The numbers of one run and their rendering: a markdown table and a one-line JSON summary. */
final class Report {

    /** Latency percentiles in milliseconds; {@code count} is the number of recorded requests. */
    record Latency(long count, double p50Ms, double p99Ms, double maxMs) {
        static final Latency NONE = new Latency(0, Double.NaN, Double.NaN, Double.NaN);

        /** From a histogram of microseconds. */
        static Latency ofMicros(Histogram h) {
            if (h.getTotalCount() == 0) return NONE;
            return new Latency(h.getTotalCount(), h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(99) / 1000.0,
                    h.getMaxValue() / 1000.0);
        }
    }

    /**
     * One measured phase. {@code rate} is in {@code unit}/s over the measured window; {@code failures}
     * counts rejected events, non-202 answers and send errors (all must be 0); CPU is in cores.
     */
    record Phase(String key, String name, String unit, double rate, Latency latency, long requests, long failures,
                 CpuMeter.Split cpu, String note) {}

    private final List<Phase> phases = new ArrayList<>();

    void add(Phase p) {
        phases.add(p);
    }

    List<Phase> phases() {
        return phases;
    }

    Phase phase(String key) {
        return phases.stream().filter(p -> p.key().equals(key)).findFirst().orElse(null);
    }

    /** Prints a markdown table: its header row, the separator (the first column left-aligned, the others right), the rows. */
    static void printTable(String header, List<String> rows) {
        System.out.println(header);
        long columns = header.chars().filter(c -> c == '|').count() - 1;
        System.out.println("|---" + "|---:".repeat((int) Math.max(0, columns - 1)) + "|");
        rows.forEach(System.out::println);
    }

    /** {@code rate / baseline}, NaN when either is missing or the baseline is 0. */
    static double ratio(double rate, double baseline) {
        return baseline > 0 && !Double.isNaN(rate) ? rate / baseline : Double.NaN;
    }

    /** Events per second over {@code nanos}. */
    static double perSecond(long count, long nanos) {
        return nanos <= 0 ? Double.NaN : count * 1e9 / nanos;
    }

    String markdownTable(String baselineKey) {
        Phase baseline = phase(baselineKey);
        StringBuilder sb = new StringBuilder();
        sb.append("| phase | rate | ratio to raw | p50 ms | p99 ms | max ms | requests | failures | CPU cores: JVM (ingest-api threads) / stack / other |\n");
        sb.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Phase p : phases) {
            boolean eventsRate = p.unit().equals("events") || p.unit().equals("records");
            String ratio = eventsRate && baseline != null ? fmt2(ratio(p.rate(), baseline.rate())) : "—";
            sb.append("| ").append(p.name()).append(p.note().isEmpty() ? "" : " (" + p.note() + ")")
                    .append(" | ").append(thousands(p.rate())).append(' ').append(p.unit()).append("/s")
                    .append(" | ").append(ratio)
                    .append(" | ").append(ms(p.latency().p50Ms()))
                    .append(" | ").append(ms(p.latency().p99Ms()))
                    .append(" | ").append(ms(p.latency().maxMs()))
                    .append(" | ").append(p.requests())
                    .append(" | ").append(p.failures())
                    .append(" | ").append(fmt1(p.cpu().jvm())).append(" (").append(fmt1(p.cpu().ingestThreads())).append(") / ").append(fmt1(p.cpu().stack()))
                    .append(" / ").append(fmt1(p.cpu().other()))
                    .append(" |\n");
        }
        return sb.toString();
    }

    /** The summary as an ordered map (rendered to one JSON line by the caller). */
    Map<String, Object> summary(Map<String, Object> header, String baselineKey) {
        Map<String, Object> out = new LinkedHashMap<>(header);
        Phase baseline = phase(baselineKey);
        for (Phase p : phases) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("rate", round(p.rate(), 1));
            m.put("unit", p.unit() + "/s");
            if (baseline != null && (p.unit().equals("events") || p.unit().equals("records"))) {
                m.put("ratioToRaw", round(ratio(p.rate(), baseline.rate()), 3));
            }
            if (p.latency().count() > 0) {
                m.put("p50Ms", round(p.latency().p50Ms(), 2));
                m.put("p99Ms", round(p.latency().p99Ms(), 2));
                m.put("maxMs", round(p.latency().maxMs(), 2));
            }
            m.put("requests", p.requests());
            m.put("failures", p.failures());
            m.put("cpuCoresJvm", round(p.cpu().jvm(), 2));
            m.put("cpuCoresIngestThreads", round(p.cpu().ingestThreads(), 2));
            m.put("cpuCoresStack", round(p.cpu().stack(), 2));
            m.put("cpuCoresOther", round(p.cpu().other(), 2));
            out.put(p.key(), m);
        }
        return out;
    }

    static Double round(double v, int digits) {
        if (Double.isNaN(v) || Double.isInfinite(v)) return null;
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }

    static String thousands(double v) {
        if (Double.isNaN(v)) return "—";
        return String.format(Locale.ROOT, "%,d", Math.round(v)).replace(',', ' ');
    }

    static String ms(double v) {
        if (Double.isNaN(v)) return "—";
        return v < 10 ? String.format(Locale.ROOT, "%.2f", v) : String.format(Locale.ROOT, "%.1f", v);
    }

    static String fmt1(double v) {
        return Double.isNaN(v) ? "—" : String.format(Locale.ROOT, "%.1f", v);
    }

    static String fmt2(double v) {
        return Double.isNaN(v) ? "—" : String.format(Locale.ROOT, "%.2f", v);
    }
}
