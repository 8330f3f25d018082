package dev.pinfeed.contentgenerator;

import dev.pinfeed.config.Futures;
import dev.pinfeed.feedstore.FeedItem;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.Source;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Seed 002's smart feed content generator: "concerned primarily with defining what new means": it
 * decides the quantity, composition and arrangement of the next chunk of a user's feed. It asks each
 * pool for its best pins (the pools are priority queues, so it never searches for the best), holds
 * back low scores or drops them, and interleaves the sources at their configured rates, each source
 * best first. It does not remove the chosen pins: the feed service does that after the user got the
 * chunk (journal, then materialize, then remove), so a crash never loses or repeats a pin.
 */
public final class ContentGenerator {

    /** How many candidates beyond a source's share to read, so deferred pins and a short pool elsewhere can be made up. */
    private static final int SLACK = 10;

    private final PoolStore pools;
    private final GeneratorSettings settings;
    private final Executor sourceReads;

    /** Reads the sources one after the other on the calling thread. */
    public ContentGenerator(PoolStore pools, GeneratorSettings settings) {
        this(pools, settings, Runnable::run);
    }

    /**
     * Reads the first source on the calling thread and the others on {@code sourceReads} at the same
     * time: a chunk then waits for the slowest pool, not for the sum of them (each is a scan and an index
     * read). {@code sourceReads} must not queue behind the generations that wait on it.
     */
    public ContentGenerator(PoolStore pools, GeneratorSettings settings, Executor sourceReads) {
        this.pools = pools;
        this.settings = settings;
        this.sourceReads = sourceReads;
    }

    /** What the generator chose, and the pins it dropped for good (the caller removes them with the chosen ones). */
    public record Result(List<FeedItem> items, List<Long> dropped) {}

    /** Up to {@code size} items for {@code userId}'s next chunk, in the order to show them. */
    public Result generate(long userId, int size) {
        if (size <= 0) return new Result(List.of(), List.of());
        Map<Source, CompletableFuture<List<PoolEntry>>> reads = new EnumMap<>(Source.class);
        Source first = null;
        for (Source s : Source.values()) {
            if (settings.share(s) <= 0) continue;
            if (first == null) first = s; // read below, on this thread, while the others are under way
            else reads.put(s, CompletableFuture.supplyAsync(() -> pools.best(userId, s, size + SLACK), sourceReads));
        }
        if (first == null) return new Result(List.of(), List.of());
        Map<Source, List<PoolEntry>> best = new EnumMap<>(Source.class);
        best.put(first, pools.best(userId, first, size + SLACK));
        reads.forEach((s, read) -> best.put(s, Futures.join(read))); // a store outage stays a StoreUnavailableException

        Map<Source, Deque<PoolEntry>> candidates = new EnumMap<>(Source.class);
        List<Long> dropped = new ArrayList<>();
        best.forEach((s, entries) -> {
            Deque<PoolEntry> usable = new ArrayDeque<>();
            for (PoolEntry e : entries) {
                if (e.score() < settings.dropBelow().getOrDefault(s, 0.0)) {
                    dropped.add(e.pinId());
                } else if (e.score() >= settings.deferBelow().getOrDefault(s, 0.0)) {
                    usable.add(e); // below deferBelow stays in the pool for a later session
                }
            }
            candidates.put(s, usable);
        });
        return new Result(interleave(candidates, size), dropped);
    }

    /**
     * Weighted round-robin: each next slot goes to the source furthest behind its share of the items
     * placed so far (ties: the better next pin); a source that runs dry leaves its slots to the others.
     */
    private List<FeedItem> interleave(Map<Source, Deque<PoolEntry>> candidates, int size) {
        List<FeedItem> out = new ArrayList<>(size);
        Map<Source, Integer> placed = new EnumMap<>(Source.class);
        while (out.size() < size) {
            Source next = null;
            double worstDeficit = Double.NEGATIVE_INFINITY;
            for (Map.Entry<Source, Deque<PoolEntry>> c : candidates.entrySet()) {
                if (c.getValue().isEmpty()) continue;
                double deficit = settings.share(c.getKey()) * (out.size() + 1) - placed.getOrDefault(c.getKey(), 0);
                boolean better = next == null || deficit > worstDeficit + 1e-9
                        || (Math.abs(deficit - worstDeficit) <= 1e-9 && c.getValue().peek().score() > candidates.get(next).peek().score());
                if (better) {
                    next = c.getKey();
                    worstDeficit = deficit;
                }
            }
            if (next == null) break; // every pool is empty
            out.add(FeedItem.of(candidates.get(next).poll()));
            placed.merge(next, 1, Integer::sum);
        }
        return out;
    }
}
