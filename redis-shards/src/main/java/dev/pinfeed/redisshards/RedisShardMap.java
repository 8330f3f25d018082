package dev.pinfeed.redisshards;

import dev.pinfeed.config.ContiguousRanges;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which Redis instance serves each of the {@link VirtualShards#COUNT} virtual shards. Text form (the
 * ZooKeeper znode's content): {@code 0-4095:redis001,4096-8191:redis002} — contiguous ranges from 0
 * covering every shard exactly once. The only place that parses or formats it.
 */
public final class RedisShardMap {

    public record Range(int first, int last, String instance) {}

    private final List<Range> ranges;
    private final String[] byShard = new String[VirtualShards.COUNT];

    private RedisShardMap(List<Range> ranges) {
        this.ranges = List.copyOf(ranges);
        for (Range r : ranges) {
            for (int s = r.first(); s <= r.last(); s++) byShard[s] = r.instance();
        }
    }

    public static RedisShardMap parse(String text) {
        List<Range> ranges = new ArrayList<>();
        int end = 0;
        for (ContiguousRanges.Entry e : ContiguousRanges.parse(text, "redis shard map", "instance", VirtualShards.COUNT)) {
            ranges.add(new Range(e.first(), e.last(), e.target()));
            end = e.last() + 1;
        }
        if (end != VirtualShards.COUNT) {
            throw new IllegalArgumentException("redis shard map ends at " + (end - 1) + ", must cover 0-" + (VirtualShards.COUNT - 1));
        }
        return new RedisShardMap(ranges);
    }

    /** The default: the shards split into equal contiguous ranges over the instances, in order. */
    public static RedisShardMap evenlyOver(List<String> instances) {
        if (instances.isEmpty()) throw new IllegalArgumentException("no redis instances");
        List<Range> ranges = new ArrayList<>();
        int per = VirtualShards.COUNT / instances.size();
        for (int i = 0; i < instances.size(); i++) {
            int first = i * per;
            // The last range takes any remainder.
            int last = i == instances.size() - 1 ? VirtualShards.COUNT - 1 : first + per - 1;
            ranges.add(new Range(first, last, instances.get(i)));
        }
        return parse(format(ranges));
    }

    public String instanceOf(int shard) {
        if (shard < 0 || shard >= VirtualShards.COUNT) throw new IllegalArgumentException("no virtual shard " + shard);
        return byShard[shard];
    }

    public List<Range> ranges() {
        return ranges;
    }

    public Set<String> instances() {
        Set<String> out = new LinkedHashSet<>();
        ranges.forEach(r -> out.add(r.instance()));
        return out;
    }

    public String format() {
        return format(ranges);
    }

    private static String format(List<Range> ranges) {
        StringBuilder sb = new StringBuilder();
        for (Range r : ranges) {
            if (sb.length() > 0) sb.append(',');
            sb.append(r.first()).append('-').append(r.last()).append(':').append(r.instance());
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RedisShardMap m && m.ranges.equals(ranges);
    }

    @Override
    public int hashCode() {
        return ranges.hashCode();
    }

    @Override
    public String toString() {
        return format();
    }
}
