package dev.pinfeed.feedstore;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** {@link MaterializedFeedStore} in memory, for unit tests; {@link MaterializedFeedStoreContract} holds it to the HBase store. */
public final class InMemoryMaterializedFeedStore implements MaterializedFeedStore {

    /** Feed order: newest chunk first, then index within the chunk. */
    private static final Comparator<FeedPosition> FEED_ORDER = Comparator.comparingLong(FeedPosition::chunkId).reversed()
            .thenComparingInt(FeedPosition::index);

    private final Map<Long, TreeMap<Long, Chunk>> journal = new HashMap<>();
    private final Map<Long, TreeMap<FeedPosition, FeedItem>> items = new HashMap<>();
    private final Map<Long, GeneratorState> states = new HashMap<>();
    private int trims;

    @Override
    public synchronized void journal(Chunk chunk) {
        journal.computeIfAbsent(chunk.userId(), u -> new TreeMap<>()).put(chunk.chunkId(), chunk);
    }

    @Override
    public synchronized List<Chunk> pending(long userId) {
        return new ArrayList<>(journal.getOrDefault(userId, new TreeMap<>()).values());
    }

    @Override
    public synchronized void materialize(Chunk chunk) {
        TreeMap<FeedPosition, FeedItem> feed = items.computeIfAbsent(chunk.userId(), u -> new TreeMap<>(FEED_ORDER));
        for (int i = 0; i < chunk.items().size(); i++) feed.put(new FeedPosition(chunk.chunkId(), i), chunk.items().get(i));
        TreeMap<Long, Chunk> j = journal.get(chunk.userId());
        if (j != null) j.remove(chunk.chunkId());
    }

    @Override
    public synchronized FeedPage read(long userId, FeedPosition after, int limit) {
        TreeMap<FeedPosition, FeedItem> feed = items.getOrDefault(userId, new TreeMap<>(FEED_ORDER));
        Map<FeedPosition, FeedItem> tail = after == null ? feed : feed.tailMap(after, false);
        List<FeedPage.Positioned> out = new ArrayList<>();
        for (Map.Entry<FeedPosition, FeedItem> e : tail.entrySet()) {
            if (out.size() == limit) return new FeedPage(out, true);
            out.add(new FeedPage.Positioned(e.getKey(), e.getValue()));
        }
        return new FeedPage(out, false);
    }

    @Override
    public synchronized void removePins(long userId, Collection<Long> pinIds) {
        TreeMap<FeedPosition, FeedItem> feed = items.get(userId);
        if (feed != null) feed.values().removeIf(i -> pinIds.contains(i.pinId()));
    }

    @Override
    public synchronized List<FeedPage.Positioned> all(long userId) {
        return read(userId, null, Integer.MAX_VALUE).items();
    }

    @Override
    public synchronized int trim(long userId, int maxItems) {
        trims++;
        List<FeedPage.Positioned> all = all(userId);
        for (int i = maxItems; i < all.size(); i++) items.get(userId).remove(all.get(i).position());
        return Math.min(maxItems, all.size());
    }

    /** How often {@link #trim} ran: a trim scans the whole feed, so callers are tested for calling it only when needed. */
    public synchronized int trims() {
        return trims;
    }

    @Override
    public synchronized Optional<GeneratorState> state(long userId) {
        return Optional.ofNullable(states.get(userId));
    }

    @Override
    public synchronized void reset(long userId) {
        journal.remove(userId);
        items.remove(userId);
        states.remove(userId);
    }

    @Override
    public synchronized void saveState(long userId, GeneratorState state) {
        states.put(userId, state);
    }
}
