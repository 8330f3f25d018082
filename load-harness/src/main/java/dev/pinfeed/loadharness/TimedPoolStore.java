package dev.pinfeed.loadharness;

import dev.pinfeed.feedstore.ForwardingPoolStore;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolStore;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * A {@link PoolStore} that tells, after each upsert returned (the entries are in HBase), how many
 * entries of each pin it wrote: how the fan-out harness sees when a pin reached its receivers' pools
 * without polling HBase. Everything else passes through.
 */
final class TimedPoolStore extends ForwardingPoolStore {

    @FunctionalInterface
    interface Listener {
        /** {@code entries} entries of {@code pinId} are stored, as of {@code atNanos} ({@link System#nanoTime}). */
        void written(long pinId, int entries, long atNanos);
    }

    private final Listener listener;

    TimedPoolStore(PoolStore delegate, Listener listener) {
        super(delegate);
        this.listener = listener;
    }

    @Override
    protected void afterUpsert(Collection<PoolEntry> entries) {
        long at = System.nanoTime();
        Map<Long, Integer> perPin = new HashMap<>();
        for (PoolEntry e : entries) perPin.merge(e.pinId(), 1, Integer::sum);
        perPin.forEach((pin, n) -> listener.written(pin, n, at));
    }
}
