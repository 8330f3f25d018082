package dev.pinfeed.config;

import java.util.ArrayList;
import java.util.List;

/**
 * The text form every shard map uses, {@code 0-2047:mysql001,2048-4095:mysql002}: ranges of shard
 * numbers from 0 upwards, contiguous, each naming the server that holds it.
 */
public final class ContiguousRanges {

    /** Shards {@code first..last} (inclusive) live on {@code target}. */
    public record Entry(int first, int last, String target) {
        @Override
        public String toString() {
            return first + "-" + last + ":" + target;
        }
    }

    private ContiguousRanges() {}

    /**
     * Parses {@code text}; {@code what} names the map and its targets in errors ("shard range …
     * first-last:host"). Every shard number must be below {@code limit}.
     */
    public static List<Entry> parse(String text, String what, String targetName, int limit) {
        if (text == null || text.isBlank()) throw new IllegalArgumentException(what + " is empty");
        List<Entry> entries = new ArrayList<>();
        for (String part : text.trim().split(",")) {
            String p = part.trim();
            int colon = p.indexOf(':');
            int dash = p.indexOf('-');
            String shape = what + " range '" + p + "' is not first-last:" + targetName;
            if (colon < 0 || dash < 0 || dash > colon) throw new IllegalArgumentException(shape);
            try {
                entries.add(new Entry(Integer.parseInt(p.substring(0, dash).trim()),
                        Integer.parseInt(p.substring(dash + 1, colon).trim()), p.substring(colon + 1).trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(shape);
            }
        }
        return check(entries, what, targetName, limit);
    }

    /**
     * The rules of every shard map, whatever its text form: ranges from 0, each starting right after
     * the previous one (no gap, no overlap), below {@code limit}, each naming a valid target.
     */
    public static List<Entry> check(List<Entry> entries, String what, String targetName, int limit) {
        if (entries.isEmpty()) throw new IllegalArgumentException(what + " is empty");
        int expectedFirst = 0;
        for (Entry e : entries) {
            if (e.first() != expectedFirst) {
                String why = expectedFirst == 0 ? "" : e.first() > expectedFirst
                        ? " (shards " + expectedFirst + "-" + (e.first() - 1) + " would be on no " + targetName + ")"
                        : " (it overlaps the previous range)";
                throw new IllegalArgumentException(what + " range '" + e + "' should start at " + expectedFirst + why);
            }
            if (e.last() < e.first() || e.last() >= limit) {
                throw new IllegalArgumentException(what + " range '" + e + "' is outside 0-" + (limit - 1));
            }
            if (e.target() == null || !e.target().matches("[A-Za-z0-9_.-]+")) {
                throw new IllegalArgumentException(what + " range '" + e + "' names no valid " + targetName);
            }
            expectedFirst = e.last() + 1;
        }
        return List.copyOf(entries);
    }
}
