package dev.pinfeed.redisshards;

import dev.pinfeed.config.ContiguousRanges;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which Redis instance serves each of the {@link VirtualShards#COUNT} virtual shards. Text form (the
 * ZooKeeper znode's content): {@code 0-4095:redis001,4096-8191:redis002} — contiguous ranges from 0
 * covering every shard exactly once — optionally followed by the fences of moves being cut over,
 * {@code ;fenced=100-163}: writers of a fenced shard wait ({@link RedisCalls#write}) until a later
 * version lifts the fence. The only place that parses or formats it.
 */
public final class RedisShardMap {

    public record Range(int first, int last, String instance) {}

    /** Virtual shards {@code first..last}: a fence. */
    public record Span(int first, int last) {
        public Span {
            if (first < 0 || last < first || last >= VirtualShards.COUNT) {
                throw new IllegalArgumentException(first + "-" + last + " is not a range of virtual shards 0-" + (VirtualShards.COUNT - 1));
            }
        }

        public boolean contains(int shard) {
            return shard >= first && shard <= last;
        }

        public static Span parse(String text) {
            int dash = text.indexOf('-');
            try {
                int first = Integer.parseInt((dash < 0 ? text : text.substring(0, dash)).trim());
                return new Span(first, dash < 0 ? first : Integer.parseInt(text.substring(dash + 1).trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + text + "' is not a range of virtual shards (FIRST-LAST)");
            }
        }

        @Override
        public String toString() {
            return first + "-" + last;
        }
    }

    private static final String FENCED = ";fenced=";

    private final List<Range> ranges;
    private final List<Span> fences;
    private final String[] byShard = new String[VirtualShards.COUNT];
    private final boolean[] fenced = new boolean[VirtualShards.COUNT];

    private RedisShardMap(List<Range> ranges, List<Span> fences) {
        this.ranges = List.copyOf(ranges);
        this.fences = List.copyOf(fences);
        for (Range r : ranges) {
            for (int s = r.first(); s <= r.last(); s++) byShard[s] = r.instance();
        }
        for (Span f : fences) {
            for (int s = f.first(); s <= f.last(); s++) fenced[s] = true;
        }
    }

    public static RedisShardMap parse(String text) {
        if (text == null) throw new IllegalArgumentException("redis shard map is empty");
        int semicolon = text.indexOf(';');
        List<Span> fences = new ArrayList<>();
        if (semicolon >= 0) {
            String rest = text.substring(semicolon).trim();
            if (!rest.startsWith(FENCED)) throw new IllegalArgumentException("redis shard map: '" + rest + "' is not " + FENCED + "FIRST-LAST,...");
            for (String f : rest.substring(FENCED.length()).split(",")) if (!f.isBlank()) fences.add(Span.parse(f));
            text = text.substring(0, semicolon);
        }
        List<Range> ranges = new ArrayList<>();
        int end = 0;
        for (ContiguousRanges.Entry e : ContiguousRanges.parse(text, "redis shard map", "instance", VirtualShards.COUNT)) {
            ranges.add(new Range(e.first(), e.last(), e.target()));
            end = e.last() + 1;
        }
        if (end != VirtualShards.COUNT) {
            throw new IllegalArgumentException("redis shard map ends at " + (end - 1) + ", must cover 0-" + (VirtualShards.COUNT - 1));
        }
        return new RedisShardMap(ranges, fences);
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

    /** Whether writers of {@code shard} must wait: a move of it is being cut over. */
    public boolean isFenced(int shard) {
        return fenced[shard];
    }

    public List<Span> fences() {
        return fences;
    }

    /** This map with shards {@code first..last} fenced as well. */
    public RedisShardMap fencing(int first, int last) {
        List<Span> next = new ArrayList<>(fences);
        Span span = new Span(first, last);
        if (!next.contains(span)) next.add(span);
        return new RedisShardMap(ranges, next);
    }

    /** This map without the fence on exactly {@code first..last} (no change if there is none). */
    public RedisShardMap unfencing(int first, int last) {
        List<Span> next = new ArrayList<>(fences);
        next.remove(new Span(first, last));
        return new RedisShardMap(ranges, next);
    }

    /** The one instance holding all of shards {@code first..last}; {@link IllegalArgumentException} if they are split. */
    public String instanceOfRange(int first, int last) {
        new Span(first, last);
        String instance = byShard[first];
        for (int s = first; s <= last; s++) {
            if (!byShard[s].equals(instance)) {
                throw new IllegalArgumentException("virtual shards " + first + "-" + last + " are on more than one instance (" + instance + ", "
                        + byShard[s] + "): move each instance's part on its own");
            }
        }
        return instance;
    }

    /** This map with shards {@code first..last} on {@code instance}, neighbouring ranges of one instance merged; fences kept. */
    public RedisShardMap assigning(int first, int last, String instance) {
        new Span(first, last);
        List<Range> split = new ArrayList<>();
        for (Range r : ranges) {
            if (r.last() < first || r.first() > last) {
                split.add(r);
                continue;
            }
            if (r.first() < first) split.add(new Range(r.first(), first - 1, r.instance()));
            if (r.first() <= first) split.add(new Range(first, last, instance));
            if (r.last() > last) split.add(new Range(last + 1, r.last(), r.instance()));
        }
        List<Range> merged = new ArrayList<>();
        for (Range r : split) {
            Range prev = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (prev != null && prev.instance().equals(r.instance()) && prev.last() + 1 == r.first()) {
                merged.set(merged.size() - 1, new Range(prev.first(), r.last(), prev.instance()));
            } else {
                merged.add(r);
            }
        }
        return parse(new RedisShardMap(merged, fences).format());
    }

    public Set<String> instances() {
        Set<String> out = new LinkedHashSet<>();
        ranges.forEach(r -> out.add(r.instance()));
        return out;
    }

    public String format() {
        String text = format(ranges);
        if (fences.isEmpty()) return text;
        return text + FENCED + String.join(",", fences.stream().map(Span::toString).toList());
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
        return o instanceof RedisShardMap m && m.ranges.equals(ranges) && m.fences.equals(fences);
    }

    @Override
    public int hashCode() {
        return ranges.hashCode() * 31 + fences.hashCode();
    }

    @Override
    public String toString() {
        return format();
    }
}
