package dev.pinfeed.canonicalstore;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Canonical rows in a comparable form: table → row key (an object's id, a mapping's {@code from/to})
 * → column → value. Values are normalized so the store's rows and the reference model's compare
 * equal when they mean the same: numbers and flags as {@code long}, JSON as a tree (key order and
 * spacing do not matter), binary versions as hex, times as ISO instants (milliseconds).
 */
public final class ComparableRows {

    /** One row that differs: missing (expected, not stored), extra (stored, not expected), or with different columns. */
    public record Difference(String table, String key, Kind kind, List<String> columns, Map<String, Object> expected, Map<String, Object> actual) {
        public enum Kind { MISSING, EXTRA, DIFFERS }

        @Override
        public String toString() {
            return switch (kind) {
                case MISSING -> "missing " + table + " " + key + ": " + expected;
                case EXTRA -> "extra   " + table + " " + key + ": " + actual;
                case DIFFERS -> {
                    StringBuilder sb = new StringBuilder("differs " + table + " " + key + ":");
                    for (String c : columns) sb.append(' ').append(c).append(" expected ").append(expected.get(c)).append(" actual ").append(actual.get(c)).append(';');
                    yield sb.substring(0, sb.length() - 1);
                }
            };
        }
    }

    private final Map<String, Map<String, Map<String, Object>>> tables = new TreeMap<>();

    public static String objectKey(long id) {
        return Long.toString(id);
    }

    public static String mappingKey(long from, long to) {
        return from + "/" + to;
    }

    public void put(String table, String key, Map<String, Object> columns) {
        Map<String, Object> normalized = new LinkedHashMap<>();
        columns.forEach((c, v) -> normalized.put(c, normalize(v)));
        tables.computeIfAbsent(table, t -> new TreeMap<>()).put(key, normalized);
    }

    public Map<String, Map<String, Object>> table(String table) {
        return tables.getOrDefault(table, Map.of());
    }

    public Set<String> tableNames() {
        return tables.keySet();
    }

    public int size() {
        return tables.values().stream().mapToInt(Map::size).sum();
    }

    /** This (expected) against {@code actual}, table by table; columns named in {@code ignored} are not compared. */
    public List<Difference> diff(ComparableRows actual, Set<String> ignored) {
        List<Difference> out = new ArrayList<>();
        Set<String> names = new TreeSet<>(tables.keySet());
        names.addAll(actual.tables.keySet());
        for (String table : names) {
            Map<String, Map<String, Object>> want = table(table);
            Map<String, Map<String, Object>> have = actual.table(table);
            Set<String> keys = new TreeSet<>(want.keySet());
            keys.addAll(have.keySet());
            for (String key : keys) {
                Map<String, Object> w = want.get(key);
                Map<String, Object> h = have.get(key);
                if (h == null) {
                    out.add(new Difference(table, key, Difference.Kind.MISSING, List.of(), w, null));
                } else if (w == null) {
                    out.add(new Difference(table, key, Difference.Kind.EXTRA, List.of(), null, h));
                } else {
                    Set<String> columns = new TreeSet<>(w.keySet());
                    columns.addAll(h.keySet());
                    columns.removeAll(ignored);
                    List<String> differing = columns.stream().filter(c -> !Objects.equals(w.get(c), h.get(c))).toList();
                    if (!differing.isEmpty()) out.add(new Difference(table, key, Difference.Kind.DIFFERS, differing, w, h));
                }
            }
        }
        return out;
    }

    static Object normalize(Object v) {
        if (v == null || v instanceof JsonNode || v instanceof String) return v;
        if (v instanceof Boolean b) return b ? 1L : 0L;
        if (v instanceof Number n) return n.longValue();
        if (v instanceof byte[] b) return HexFormat.of().formatHex(b);
        if (v instanceof Instant i) return i.toString();
        return v.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ComparableRows r && r.tables.equals(tables);
    }

    @Override
    public int hashCode() {
        return tables.hashCode();
    }

    @Override
    public String toString() {
        return tables.toString();
    }
}
