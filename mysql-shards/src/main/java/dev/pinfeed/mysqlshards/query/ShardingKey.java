package dev.pinfeed.mysqlshards.query;

import java.util.Collection;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Which logical shards a query touches (seed 003's sharding_key): all of them, one, a list, or a
 * range. The caller says which, as Quora's API asks; the query runs on exactly those shards.
 */
public sealed interface ShardingKey {

    /** The shards this key names, of {@code shardCount}. */
    SortedSet<Integer> shards(int shardCount);

    static ShardingKey all() {
        return new All();
    }

    static ShardingKey one(int shard) {
        return new Many(new TreeSet<>(java.util.List.of(shard)));
    }

    static ShardingKey of(Collection<Integer> shards) {
        return new Many(new TreeSet<>(shards));
    }

    /** Shards {@code first} to {@code last}, inclusive. */
    static ShardingKey range(int first, int last) {
        if (first > last) throw new IllegalArgumentException("empty shard range " + first + "-" + last);
        return new Range(first, last);
    }

    record All() implements ShardingKey {
        @Override
        public SortedSet<Integer> shards(int shardCount) {
            return new Range(0, shardCount - 1).shards(shardCount);
        }
    }

    record Many(SortedSet<Integer> shards) implements ShardingKey {
        @Override
        public SortedSet<Integer> shards(int shardCount) {
            for (int s : shards) {
                if (s < 0 || s >= shardCount) throw new IllegalArgumentException("shard " + s + " is outside 0-" + (shardCount - 1));
            }
            return shards;
        }
    }

    record Range(int first, int last) implements ShardingKey {
        @Override
        public SortedSet<Integer> shards(int shardCount) {
            SortedSet<Integer> out = new TreeSet<>();
            for (int s = Math.max(0, first); s <= Math.min(last, shardCount - 1); s++) out.add(s);
            return out;
        }
    }
}
