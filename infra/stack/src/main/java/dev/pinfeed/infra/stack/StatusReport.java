package dev.pinfeed.infra.stack;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** {@code ./pinfeed status} as a table for people or JSON for scripts: the same rows either way. */
final class StatusReport {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final String FORMAT = "%-16s %-40s %-24s %-5s %8s %7s  %s%n";

    private StatusReport() {}

    static String table(List<LocalStack.Row> rows, LocalStack stack) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, FORMAT, "SERVER", "ROLE", "ENDPOINT", "STATE", "PID", "RSS MB", "DETAIL"));
        long totalMb = 0;
        Set<Long> counted = new HashSet<>(); // apps sharing a JVM show its pid and RSS each: counted once
        for (LocalStack.Row r : rows) {
            if (r.rssMb() != null && counted.add(r.pid())) totalMb += r.rssMb();
            // An app nobody asked to run is not a problem: no detail for it.
            String detail = r.detail() == null || !r.expected() ? "" : r.detail();
            sb.append(String.format(Locale.ROOT, FORMAT, r.name(), r.role(), r.endpoint(), r.state(),
                    r.pid() == null ? "-" : r.pid(), r.rssMb() == null ? "-" : r.rssMb(), detail).stripTrailing()).append('\n');
        }
        sb.append(String.format(Locale.ROOT, "%-16s %-40s %s%n", "app-config", "ZooKeeper (Curator namespace)",
                stack.config().appZookeeper() + "/" + stack.config().appZookeeperNamespace()));
        sb.append(String.format(Locale.ROOT, "total RSS %d MB; data %s; logs %s%n", totalMb,
                stack.layout().home().resolve("data"), stack.layout().home().resolve("logs")));
        return sb.toString();
    }

    /** An array of {name, role, endpoint, state, pid, rssMb, detail, expected}. */
    static String json(List<LocalStack.Row> rows) {
        List<Map<String, Object>> out = rows.stream().map(r -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", r.name());
            m.put("role", r.role());
            m.put("endpoint", r.endpoint());
            m.put("state", r.state());
            m.put("pid", r.pid());
            m.put("rssMb", r.rssMb());
            m.put("detail", r.detail());
            m.put("expected", r.expected());
            return m;
        }).toList();
        try {
            return JSON.writeValueAsString(out) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
