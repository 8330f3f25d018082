package dev.pinfeed.operations.verify.pools;

import dev.pinfeed.clikit.Progress;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What {@code ./pinfeed verify pools} found over all the users it checked: the differences by kind (the
 * first {@code maxPrinted} of each kept for printing), the counters of the checks, and with {@code --repair}
 * the differences left after it.
 */
final class PoolsReport {

    /** The differences of one pass (before a repair, or after it). */
    static final class Differences {
        private final int maxPrinted;
        private final Map<PoolDifference.Kind, Long> counts = new EnumMap<>(PoolDifference.Kind.class);
        private final Map<PoolDifference.Kind, List<PoolDifference>> printed = new EnumMap<>(PoolDifference.Kind.class);

        Differences(int maxPrinted) {
            this.maxPrinted = maxPrinted;
        }

        void add(List<PoolDifference> differences) {
            for (PoolDifference d : differences) {
                counts.merge(d.kind(), 1L, Long::sum);
                List<PoolDifference> kept = printed.computeIfAbsent(d.kind(), k -> new ArrayList<>());
                if (kept.size() < maxPrinted) kept.add(d);
            }
        }

        long total() {
            return counts.values().stream().mapToLong(Long::longValue).sum();
        }

        void print(PrintWriter out) {
            counts.forEach((kind, n) -> {
                out.printf("%s: %d%n", kind.label(), n);
                printed.get(kind).forEach(d -> out.println("  user " + d.userId() + " pin " + d.pinId() + ": " + d.detail()));
                if (n > printed.get(kind).size()) out.printf("  ... %d more%n", n - printed.get(kind).size());
            });
        }

        String json() {
            String byKind = counts.entrySet().stream().map(e -> Progress.quote(e.getKey().label()) + ":" + e.getValue())
                    .collect(Collectors.joining(",", "{", "}"));
            String first = printed.values().stream().flatMap(List::stream)
                    .map(d -> "{\"kind\":" + Progress.quote(d.kind().label()) + ",\"user\":" + d.userId() + ",\"pin\":" + d.pinId()
                            + ",\"detail\":" + Progress.quote(d.detail()) + "}")
                    .collect(Collectors.joining(",", "[", "]"));
            return "{\"total\":" + total() + ",\"byKind\":" + byKind + ",\"first\":" + first + "}";
        }
    }

    final Differences found;
    final Differences afterRepair;
    private final Map<String, Long> counts = new LinkedHashMap<>();
    long users;
    long usersRepaired;
    long lastUser;

    PoolsReport(int maxPrinted) {
        this.found = new Differences(maxPrinted);
        this.afterRepair = new Differences(maxPrinted);
        for (String name : List.of(PoolVerifier.ENTRIES, PoolVerifier.ORPHAN_ROWS, PoolVerifier.DELIVERIES, PoolVerifier.IN_POOLS, PoolVerifier.SHOWN,
                PoolVerifier.TRIMMED, PoolVerifier.DROPPED, PoolVerifier.BEFORE_REBUILD, PoolVerifier.WITHDRAWN)) {
            counts.put(name, 0L);
        }
    }

    /** One user's check, and the check after his repair (null without {@code --repair}, or when there was nothing to repair). */
    void add(UserCheck check, UserCheck afterRepair) {
        users++;
        lastUser = check.userId();
        check.counts().forEach((name, n) -> counts.merge(name, n, Long::sum));
        found.add(check.differences());
        if (afterRepair != null) {
            usersRepaired++;
            this.afterRepair.add(afterRepair.differences());
        }
    }

    /** The counters as a line: "12 entries; 40 deliveries: 30 in-pools, ...". */
    String countsLine() {
        Set<String> totals = Set.of(PoolVerifier.ENTRIES, PoolVerifier.ORPHAN_ROWS, PoolVerifier.DELIVERIES);
        String fates = counts.entrySet().stream().filter(e -> !totals.contains(e.getKey()))
                .map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", "));
        return users + " users, " + counts.get(PoolVerifier.ENTRIES) + " pool entries (and " + counts.get(PoolVerifier.ORPHAN_ROWS)
                + " orphan rows, which readers skip and delete), " + counts.get(PoolVerifier.DELIVERIES) + " deliveries (" + fates + ")";
    }

    String countsJson() {
        return counts.entrySet().stream().map(e -> Progress.quote(e.getKey()) + ":" + e.getValue()).collect(Collectors.joining(",", "{", "}"));
    }
}
