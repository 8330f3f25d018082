package dev.pinfeed.followergraph.sharded;

import dev.pinfeed.followergraph.sharded.GraphBackend.KeyFix;
import dev.pinfeed.followergraph.sharded.GraphBackend.KeyRead;
import dev.pinfeed.followergraph.sharded.GraphBackend.RegisterFix;
import dev.pinfeed.followergraph.sharded.GraphBackend.ScanStep;
import dev.pinfeed.followergraph.sharded.GraphBackend.Stored;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A store's keys as an audit sees them (the graph's audit, {@code dev.pinfeed.followergraph.audit}): the
 * instances, a scan of each for the graph's keys under the store's prefix, whole keys read, and the two
 * repairs — a pair recomputed through the write protocol ({@link GraphWrites}), and fixes of single members
 * of a key. Both write only what still holds what the audit read, so a live writer is never overwritten
 * with older knowledge.
 */
public final class GraphKeyspace {

    /**
     * A pair to recompute: {@code fixes} of its registers, the smallest sequence the repair must exceed
     * (what the followee's side has applied, as read), and boards whose entries of the pair no register may
     * explain (removed unless a register now does).
     */
    public record PairRepair(long follower, long owner, List<RegisterFix> fixes, long floor, Set<Long> strayBoards) {}

    /** What a pair repair did: its sequence, register fixes skipped (changed since read), and each side's write. */
    public record PairRepaired(long seq, int skippedFixes, boolean followerSide, boolean followeeSide) {}

    private final GraphBackend backend;
    private final GraphKeys keys;
    private final GraphWrites writes;

    GraphKeyspace(GraphBackend backend, GraphKeys keys, GraphWrites writes) {
        this.backend = backend;
        this.keys = keys;
        this.writes = writes;
    }

    public GraphKeys keys() {
        return keys;
    }

    public List<String> instances() {
        return backend.instances();
    }

    /** Which instance serves a virtual shard now (the live shard map). */
    public String instanceOf(int shard) {
        return backend.instanceOf(shard);
    }

    /** Every key on the instance, all schemes together: the total a scan walks through. */
    public long keyCount(String instance) {
        return backend.keyCount(instance);
    }

    /** One step of a scan of {@code instance} for keys shaped like the graph's under the prefix ({@link GraphKeys#scanPattern}). */
    public ScanStep scan(String instance, String cursor, int count) {
        return backend.scan(instance, cursor, keys.scanPattern(), count);
    }

    /** Whole graph keys on {@code instance}, each read as the type its kind has. */
    public Map<String, Stored> read(String instance, Collection<String> graphKeys) {
        List<KeyRead> reads = new ArrayList<>();
        for (String key : graphKeys) {
            GraphKeys.Key parsed = keys.parse(key).orElseThrow(() -> new IllegalArgumentException("not a graph key: " + key));
            reads.add(new KeyRead(key, parsed.kind().redisType()));
        }
        return reads.isEmpty() ? Map.of() : backend.read(instance, reads);
    }

    /** Recomputes one pair on both sides through the write protocol (see {@link GraphWrites}). */
    public PairRepaired repairPair(PairRepair repair) {
        return writes.repair(repair);
    }

    /** Fixes members of one key on {@code instance}; -1 when the wrong-typed key to delete had changed type. */
    public int fixKey(String instance, KeyFix fix) {
        return backend.fixKey(instance, fix);
    }
}
