package dev.pinfeed.config;

/**
 * MurmurHash3's 64-bit finalizer: a one-to-one scramble of a long whose every output bit depends on every input bit.
 * For ids whose own bits are far from uniform (a shard in the high bits, a small local id in the low ones): where they
 * pick a virtual shard, and where they key a hash table.
 */
public final class Mix64 {

    private Mix64() {}

    public static long of(long x) {
        long h = x;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
