package dev.pinfeed.followergraph.sharded;

import dev.pinfeed.followergraph.sharded.GraphBackend.Reads;
import dev.pinfeed.redisshards.VirtualShards;
import java.util.Collection;
import java.util.List;

/** The backend and the key scheme, addressed by id: an id's virtual shard decides its instance. Shared by the store's parts. */
final class GraphShards {

    final GraphBackend backend;
    final GraphKeys keys;

    GraphShards(GraphBackend backend, GraphKeys keys) {
        this.backend = backend;
        this.keys = keys;
    }

    static int shard(long id) {
        return VirtualShards.of(id);
    }

    String instance(long id) {
        return backend.instanceOf(shard(id));
    }

    Reads reads(String instance) {
        return backend.reads(instance);
    }

    static String str(long v) {
        return Long.toString(v);
    }

    static List<String> distinct(Collection<Long> ids) {
        return ids.stream().distinct().map(GraphShards::str).toList();
    }
}
