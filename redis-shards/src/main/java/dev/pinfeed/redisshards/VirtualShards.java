package dev.pinfeed.redisshards;

import dev.pinfeed.config.Mix64;
import java.util.stream.IntStream;

/**
 * The one shard function of the keys on pinfeed's Redis instances (the follower graph, the canonical
 * caches, last reads, affinities): any user or object id → one of 8192 virtual shards, and the hash
 * tag {@code {v<shard>}} that places a key on its shard's instance (and would keep a user's keys in one
 * Redis Cluster slot). The murmur3 finalizer spreads sequential and structured ids (time-sortable,
 * sharded) evenly. Never change it on live data: every key would move (rebuild instead).
 */
public final class VirtualShards {

    public static final int COUNT = 8192;
    /** Every shard's tag, made once: keys are built on every cache lookup (a feed page's pins), and so were their tags. */
    private static final String[] TAGS = IntStream.range(0, COUNT).mapToObj(s -> "{v" + s + "}").toArray(String[]::new);

    private VirtualShards() {}

    public static int of(long id) {
        return (int) (Mix64.of(id) & (COUNT - 1));
    }

    /** The hash tag of {@code id}'s keys: {@code {v<shard>}}; nothing else formats it. */
    public static String tag(long id) {
        return tagOfShard(of(id));
    }

    /** The hash tag of every key of virtual shard {@code shard}. */
    public static String tagOfShard(int shard) {
        if (shard < 0 || shard >= COUNT) throw new IllegalArgumentException("no virtual shard " + shard);
        return TAGS[shard];
    }

    /**
     * The virtual shard of a pinfeed key: the number in its hash tag (Redis's rule: the first
     * {@code {...}} of the key), or -1 when it has none of the form {@code {v<shard>}}.
     */
    public static int shardOfKey(String key) {
        int open = key.indexOf('{');
        if (open < 0) return -1;
        int close = key.indexOf('}', open + 1);
        if (close < 0 || close - open < 3 || key.charAt(open + 1) != 'v' || close - open > 8) return -1;
        int shard = 0;
        for (int i = open + 2; i < close; i++) {
            char c = key.charAt(i);
            if (c < '0' || c > '9') return -1;
            shard = shard * 10 + (c - '0');
        }
        return shard < COUNT ? shard : -1;
    }

    /**
     * {@code prefix}, checked for use before a {@link #tag}: a brace in it would become the key's hash
     * tag. Every key scheme on these instances takes its prefix through this.
     */
    public static String checkedPrefix(String prefix) {
        if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
            throw new IllegalArgumentException("key prefix must not contain braces (it would become the hash tag): " + prefix);
        }
        return prefix;
    }
}
