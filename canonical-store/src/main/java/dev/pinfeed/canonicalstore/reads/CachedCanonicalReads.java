package dev.pinfeed.canonicalstore.reads;

import dev.pinfeed.canonicalstore.CanonicalCacheKeys;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.idallocator.ObjectType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Seed 002's caches of the application-layer join, in front of the store: a board's first
 * {@code listSize} pin ids per order (deeper pages go to the store), and users, boards, pins (with
 * their like and comment counts) and comments by id. Fills are versioned ({@link CanonicalCache}), so a read that raced a
 * write never puts back what the write invalidated; a time to live bounds anything else. A cache that
 * does not answer costs only speed: the read goes to the store and the listener hears of the outage.
 */
public final class CachedCanonicalReads extends ForwardingCanonicalRows {

    /** Pin ids kept per board and order: seed 002's first pages; deeper ones go to MySQL. */
    public static final int DEFAULT_LIST_SIZE = 1000;

    private final CanonicalCache cache;
    private final CacheListener listener;
    private final int listSize;

    public CachedCanonicalReads(CanonicalRows store, CanonicalCache cache, CacheListener listener, int listSize) {
        super(store); // what is not cached is forwarded
        if (listSize < 1) throw new IllegalArgumentException("listSize must be >= 1: " + listSize);
        this.cache = cache;
        this.listener = listener;
        this.listSize = listSize;
    }

    @Override
    public Map<Long, String> objects(ObjectType type, Collection<Long> ids) {
        Function<Long, String> keyOf = switch (type) {
            case USER -> CanonicalCacheKeys::user;
            case BOARD -> CanonicalCacheKeys::board;
            case PIN -> CanonicalCacheKeys::pin;
            case COMMENT -> CanonicalCacheKeys::comment;
            case INTEREST -> CanonicalCacheKeys::interest;
        };
        Map<Long, String> out = cached(type.typeName(), ids, id -> List.of(keyOf.apply(id)), values -> values.get(0),
                missing -> delegate().objects(type, missing), (id, json) -> List.of(json));
        return out != null ? out : delegate().objects(type, ids);
    }

    @Override
    public Map<Long, PinRow> pins(Collection<Long> pinIds) {
        Map<Long, PinRow> out = cached("pin", pinIds,
                id -> List.of(CanonicalCacheKeys.pin(id), CanonicalCacheKeys.pinLikes(id), CanonicalCacheKeys.pinComments(id),
                        CanonicalCacheKeys.pinRepins(id)),
                values -> values.stream().anyMatch(java.util.Objects::isNull) ? null
                        : new PinRow(values.get(0), Long.parseLong(values.get(1)), Long.parseLong(values.get(2)), Long.parseLong(values.get(3))),
                delegate()::pins, (id, row) -> List.of(row.json(), Long.toString(row.likes()), Long.toString(row.comments()),
                        Long.toString(row.repins())));
        return out != null ? out : delegate().pins(pinIds);
    }

    @Override
    public List<ListEntry> boardPins(long boardId, BoardPinOrder order, ListEntry after, int offset, int limit) {
        String key = CanonicalCacheKeys.boardPins(boardId, order.wireName());
        Map<Long, BoardPinsValue> got = cached("board_pins", List.of(boardId), id -> List.of(key), values -> BoardPinsValue.decode(values.get(0)),
                missing -> Map.of(boardId, firstEntries(boardId, order)), (id, list) -> List.of(list.encode()));
        if (got != null) {
            List<ListEntry> entries = got.get(boardId).entries();
            int start = after == null ? offset : firstAfter(entries, after, order);
            if (start + limit <= entries.size() || got.get(boardId).complete()) {
                return entries.subList(Math.min(start, entries.size()), Math.min(entries.size(), start + limit));
            }
        }
        return delegate().boardPins(boardId, order, after, offset, limit);
    }

    private BoardPinsValue firstEntries(long boardId, BoardPinOrder order) {
        List<ListEntry> rows = delegate().boardPins(boardId, order, null, 0, listSize + 1);
        return new BoardPinsValue(rows.subList(0, Math.min(listSize, rows.size())), rows.size() <= listSize);
    }

    /** The index of the first entry that sorts strictly after {@code after} (binary search: entries are in order). */
    private static int firstAfter(List<ListEntry> entries, ListEntry after, BoardPinOrder order) {
        int lo = 0;
        int hi = entries.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (order.comparator().compare(entries.get(mid), after) <= 0) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    /**
     * The values of {@code ids} from the cache, the misses loaded from the store and filled under the
     * version looked up with them; null when the cache is down (the caller reads the store instead).
     *
     * @param decode a value from the values of its keys (in {@code keysOf} order, null when absent); null for a miss
     * @param encode the values of its keys, in {@code keysOf} order
     */
    private <V> Map<Long, V> cached(String name, Collection<Long> ids, Function<Long, List<String>> keysOf,
                                    Function<List<String>, V> decode, Function<Collection<Long>, Map<Long, V>> load,
                                    BiFunction<Long, V, List<String>> encode) {
        Map<Long, List<String>> keys = new LinkedHashMap<>();
        for (Long id : new LinkedHashSet<>(ids)) keys.put(id, keysOf.apply(id));
        Map<Long, CanonicalCache.Lookup> found;
        try {
            found = cache.lookup(keys);
        } catch (StoreUnavailableException e) {
            listener.error(e);
            return null;
        }
        Map<Long, V> out = new HashMap<>();
        List<Long> missing = new ArrayList<>();
        keys.forEach((id, idKeys) -> {
            CanonicalCache.Lookup lookup = found.get(id);
            List<String> values = new ArrayList<>(idKeys.size());
            for (String k : idKeys) values.add(lookup == null ? null : lookup.values().get(k));
            V value = values.contains(null) ? null : decode.apply(values);
            if (value != null) out.put(id, value);
            else missing.add(id);
        });
        listener.hits(name, out.size());
        if (missing.isEmpty()) return out;
        listener.misses(name, missing.size());
        Map<Long, V> loaded = load.apply(missing);
        out.putAll(loaded);
        List<CanonicalCache.Fill> fills = new ArrayList<>();
        loaded.forEach((id, value) -> {
            CanonicalCache.Lookup lookup = found.get(id);
            List<String> idKeys = keys.get(id);
            List<String> encoded = encode.apply(id, value);
            Map<String, String> values = new LinkedHashMap<>();
            for (int i = 0; i < idKeys.size(); i++) values.put(idKeys.get(i), encoded.get(i));
            fills.add(new CanonicalCache.Fill(id, lookup == null ? "" : lookup.version(), values));
        });
        try {
            cache.fill(fills);
        } catch (StoreUnavailableException e) {
            listener.error(e);
        }
        return out;
    }
}
