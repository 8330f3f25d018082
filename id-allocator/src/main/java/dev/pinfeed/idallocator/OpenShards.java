package dev.pinfeed.idallocator;

import java.util.ArrayList;
import java.util.List;

/**
 * The shards new root objects may be created on, e.g. {@code 0-4095}, later {@code 4096-8191}
 * (Pinterest opened new ranges instead of moving data). Text form: comma-separated
 * {@code first-last} ranges, disjoint and ascending.
 */
public final class OpenShards {

    public record Range(int first, int last) {
        int size() {
            return last - first + 1;
        }
    }

    private final List<Range> ranges;
    private final int count;

    private OpenShards(List<Range> ranges) {
        this.ranges = List.copyOf(ranges);
        this.count = ranges.stream().mapToInt(Range::size).sum();
    }

    public static OpenShards parse(String text) {
        if (text == null || text.isBlank()) throw new IllegalArgumentException("open shard ranges are empty");
        List<Range> ranges = new ArrayList<>();
        int previousLast = -1;
        for (String part : text.split(",")) {
            String p = part.trim();
            int dash = p.indexOf('-');
            Range r;
            try {
                r = dash < 0 ? new Range(Integer.parseInt(p), Integer.parseInt(p))
                        : new Range(Integer.parseInt(p.substring(0, dash).trim()), Integer.parseInt(p.substring(dash + 1).trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("open shard range '" + p + "' is not first-last");
            }
            if (r.first() < 0 || r.last() > ShardedId.MAX_SHARD || r.last() < r.first()) {
                throw new IllegalArgumentException("open shard range '" + p + "' is not within 0-" + ShardedId.MAX_SHARD);
            }
            if (r.first() <= previousLast) {
                throw new IllegalArgumentException("open shard range '" + p + "' overlaps or precedes the range before it");
            }
            ranges.add(r);
            previousLast = r.last();
        }
        return new OpenShards(ranges);
    }

    /** Number of open shards. */
    public int count() {
        return count;
    }

    /** The {@code index}-th open shard in ascending order, {@code 0 <= index < count()}. */
    public int shardAt(int index) {
        if (index < 0 || index >= count) throw new IndexOutOfBoundsException(index);
        int rest = index;
        for (Range r : ranges) {
            if (rest < r.size()) return r.first() + rest;
            rest -= r.size();
        }
        throw new AssertionError("unreachable");
    }

    public boolean contains(int shard) {
        return ranges.stream().anyMatch(r -> shard >= r.first() && shard <= r.last());
    }

    public int lastShard() {
        return ranges.get(ranges.size() - 1).last();
    }

    public List<Range> ranges() {
        return ranges;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Range r : ranges) {
            if (sb.length() > 0) sb.append(',');
            sb.append(r.first()).append('-').append(r.last());
        }
        return sb.toString();
    }
}
