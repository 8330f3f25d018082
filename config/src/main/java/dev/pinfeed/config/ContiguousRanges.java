package dev.pinfeed.config;

import java.util.ArrayList;
import java.util.List;

/**
 * The text form every shard map uses, {@code 0-2047:mysql001,2048-4095:mysql002}: ranges of shard
 * numbers from 0 upwards, contiguous, each naming the server that holds it.
 */
public final class ContiguousRanges {

    /** Shards {@code first..last} (inclusive) live on {@code target}. */
    public record Entry(int first, int last, String target) {}

    private ContiguousRanges() {}

    /**
     * Parses {@code text}; {@code what} names the map and its targets in errors ("shard range …
     * first-last:host"). Every shard number must be below {@code limit}.
     */
    public static List<Entry> parse(String text, String what, String targetName, int limit) {
        if (text == null || text.isBlank()) throw new IllegalArgumentException(what + " is empty");
        List<Entry> entries = new ArrayList<>();
        int expectedFirst = 0;
        for (String part : text.trim().split(",")) {
            String p = part.trim();
            int colon = p.indexOf(':');
            int dash = p.indexOf('-');
            String shape = what + " range '" + p + "' is not first-last:" + targetName;
            if (colon < 0 || dash < 0 || dash > colon) throw new IllegalArgumentException(shape);
            int first;
            int last;
            try {
                first = Integer.parseInt(p.substring(0, dash).trim());
                last = Integer.parseInt(p.substring(dash + 1, colon).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(shape);
            }
            String target = p.substring(colon + 1).trim();
            if (first != expectedFirst) throw new IllegalArgumentException(what + " range '" + p + "' should start at " + expectedFirst);
            if (last < first || last >= limit) throw new IllegalArgumentException(what + " range '" + p + "' is outside 0-" + (limit - 1));
            if (!target.matches("[A-Za-z0-9_.-]+")) throw new IllegalArgumentException(what + " range '" + p + "' names no valid " + targetName);
            entries.add(new Entry(first, last, target));
            expectedFirst = last + 1;
        }
        return entries;
    }
}
