package dev.pinfeed.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which MySQL host holds each logical shard, and the database name of a shard ({@code db03429}).
 * Text form: {@code 0-2047:mysql001,2048-4095:mysql002} — contiguous, non-overlapping ranges from 0.
 * The only place that formats shard database names.
 */
public final class ShardMap {

    public record Range(int first, int last, String host) {
        boolean contains(int shard) {
            return shard >= first && shard <= last;
        }
    }

    private final List<Range> ranges;

    private ShardMap(List<Range> ranges) {
        this.ranges = List.copyOf(ranges);
    }

    public static ShardMap parse(String text) {
        if (text == null || text.isBlank()) throw new IllegalArgumentException("shard map is empty");
        List<Range> ranges = new ArrayList<>();
        int expectedFirst = 0;
        for (String part : text.split(",")) {
            String p = part.trim();
            int colon = p.indexOf(':');
            int dash = p.indexOf('-');
            if (colon < 0 || dash < 0 || dash > colon) {
                throw new IllegalArgumentException("shard range '" + p + "' is not first-last:host");
            }
            int first;
            int last;
            try {
                first = Integer.parseInt(p.substring(0, dash).trim());
                last = Integer.parseInt(p.substring(dash + 1, colon).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("shard range '" + p + "' is not first-last:host");
            }
            String host = p.substring(colon + 1).trim();
            if (first != expectedFirst) {
                throw new IllegalArgumentException("shard range '" + p + "' should start at " + expectedFirst);
            }
            if (last < first || last > 0xFFFF || host.isEmpty()) {
                throw new IllegalArgumentException("shard range '" + p + "' is invalid");
            }
            ranges.add(new Range(first, last, host));
            expectedFirst = last + 1;
        }
        return new ShardMap(ranges);
    }

    public static ShardMap from(PinfeedConfig config) {
        return parse(config.require("mysql.shards"));
    }

    public int shardCount() {
        return ranges.get(ranges.size() - 1).last() + 1;
    }

    public List<Range> ranges() {
        return ranges;
    }

    public String hostOf(int shard) {
        for (Range r : ranges) {
            if (r.contains(shard)) return r.host();
        }
        throw new IllegalArgumentException("shard " + shard + " is outside the shard map (0-" + (shardCount() - 1) + ")");
    }

    public List<Integer> shardsOn(String host) {
        List<Integer> shards = new ArrayList<>();
        for (Range r : ranges) {
            if (r.host().equals(host)) {
                for (int s = r.first(); s <= r.last(); s++) shards.add(s);
            }
        }
        return shards;
    }

    public static String databaseName(int shard) {
        if (shard < 0 || shard > 0xFFFF) throw new IllegalArgumentException("shard out of range: " + shard);
        return String.format(Locale.ROOT, "db%05d", shard);
    }

    public String format() {
        StringBuilder sb = new StringBuilder();
        for (Range r : ranges) {
            if (sb.length() > 0) sb.append(',');
            sb.append(r.first()).append('-').append(r.last()).append(':').append(r.host());
        }
        return sb.toString();
    }
}
