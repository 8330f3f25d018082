package dev.pinfeed.followergraph.audit;

import dev.pinfeed.followergraph.sharded.GraphBackend;
import dev.pinfeed.followergraph.sharded.MemoryBackend;
import dev.pinfeed.redisshards.VirtualShards;
import java.util.List;
import java.util.Map;

/**
 * Two in-memory instances, {@code a} (virtual shards 0-4095) and {@code b} (4096-8191), as the Redis
 * store spreads the graph over two: an audit's unit tests see per-instance keys, an instance to flush,
 * and keys on the wrong instance.
 */
final class TwoInstances implements GraphBackend {

    final MemoryBackend a = new MemoryBackend();
    final MemoryBackend b = new MemoryBackend();

    @Override
    public String instanceOf(int shard) {
        return shard < VirtualShards.COUNT / 2 ? "a" : "b";
    }

    MemoryBackend on(String instance) {
        return switch (instance) {
            case "a" -> a;
            case "b" -> b;
            default -> throw new IllegalArgumentException("no instance " + instance);
        };
    }

    private MemoryBackend of(int shard) {
        return on(instanceOf(shard));
    }

    @Override
    public Reads reads(String instance) {
        return on(instance).reads(MemoryBackend.INSTANCE);
    }

    @Override
    public PairRead casRegister(int shard, CasRequest request) {
        return of(shard).casRegister(shard, request);
    }

    @Override
    public boolean apply(int shard, Guard guard, List<Mutation> mutations) {
        return of(shard).apply(shard, guard, mutations);
    }

    @Override
    public long claimOwner(int shard, String ownersKey, long board, long owner) {
        return of(shard).claimOwner(shard, ownersKey, board, owner);
    }

    @Override
    public List<String> instances() {
        return List.of("a", "b");
    }

    @Override
    public long keyCount(String instance) {
        return on(instance).keyCount(MemoryBackend.INSTANCE);
    }

    @Override
    public ScanStep scan(String instance, String cursor, String pattern, int count) {
        return on(instance).scan(MemoryBackend.INSTANCE, cursor, pattern, count);
    }

    @Override
    public Map<String, Stored> read(String instance, List<KeyRead> keys) {
        return on(instance).read(MemoryBackend.INSTANCE, keys);
    }

    @Override
    public PairReset resetPair(int shard, PairResetRequest request) {
        return of(shard).resetPair(shard, request);
    }

    @Override
    public int fixKey(String instance, KeyFix fix) {
        return on(instance).fixKey(MemoryBackend.INSTANCE, fix);
    }

    @Override
    public void close() {}
}
