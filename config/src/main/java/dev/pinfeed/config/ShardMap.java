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
        List<Range> ranges = new ArrayList<>();
        for (ContiguousRanges.Entry e : ContiguousRanges.parse(text, "shard map", "host", 0x10000)) {
            ranges.add(new Range(e.first(), e.last(), e.target()));
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
