package dev.pinfeed.followergraph.audit;

import dev.pinfeed.followergraph.sharded.GraphKeys;
import dev.pinfeed.followergraph.sharded.MemoryBackend;
import dev.pinfeed.followergraph.sharded.ShardedGraphStore;

/**
 * The graph as its events say it should be: the store's own write path ({@code GraphWrites},
 * {@code PairRules}, the same commands) over process memory instead of Redis, under the live graph's key
 * prefix, so its keys are the very keys the live graph should hold. Exact for everything that is a
 * function of the set of events; the pair sequences are not (they count changes in arrival order) and
 * are checked by their invariant instead ({@link GraphAudit}). Costs heap in proportion to the graph (about
 * 60 MB for the demo's size: 3 000 users, 6 000 boards, 50 000 follows) and nothing on Redis.
 */
public final class GraphOracle extends ShardedGraphStore {

    public GraphOracle(String keyPrefix) {
        super(new MemoryBackend(), new GraphKeys(keyPrefix));
    }
}
