package dev.pinfeed.followergraph.sharded;

/**
 * The one shard function of the graph: any user or board id → one of 8192 virtual shards. The
 * murmur3 finalizer spreads sequential and structured ids (time-sortable, sharded) evenly. Never
 * change it on live data: every key would move (rebuild instead, see the README).
 */
public final class VirtualShards {

    public static final int COUNT = 8192;

    private VirtualShards() {}

    public static int of(long id) {
        long h = id;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return (int) (h & (COUNT - 1));
    }
}
