package dev.pinfeed.feedstore;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** {@link LastReadStore} in a map, for unit tests; {@link LastReadStoreContract} holds it to the Redis store's behaviour. */
public final class InMemoryLastReadStore implements LastReadStore {

    private final Map<Long, Long> reads = new ConcurrentHashMap<>();
    private volatile boolean replicaConfirms = true;

    /** Whether {@link #recordRead} reports its records as held by a replica (a lost replica: false). */
    public void replicaConfirms(boolean confirms) {
        replicaConfirms = confirms;
    }

    @Override
    public boolean recordRead(long userId, long readMillis) {
        reads.merge(userId, readMillis, Math::max);
        return replicaConfirms;
    }

    @Override
    public Map<Long, Long> lastReads(Collection<Long> userIds) {
        Map<Long, Long> out = new HashMap<>();
        for (Long u : userIds) {
            Long r = reads.get(u);
            if (r != null) out.put(u, r);
        }
        return out;
    }
}
