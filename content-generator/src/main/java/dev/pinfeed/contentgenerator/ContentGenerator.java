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
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Seed 002's smart feed content generator: "concerned primarily with defining what new means": it
 * decides the quantity, composition and arrangement of the next chunk of a user's feed. It asks each
 * pool for its best pins (the pools are priority queues, so it never searches for the best), holds
 * back low scores or drops them, and interleaves the sources at their configured rates, each source
 * best first. It does not remove the chosen pins: the feed service does that after the user got the
 * chunk (journal, then materialize, then remove), so a crash never loses or repeats a pin.
 *
 * <p>Repins: a user sees a parent pin once per feed, as itself or as one of its repins. "One feed" is
 * the chunk and every pin shown to him while the pools remember it ({@link PoolStore#removeShown}, 30
 * days in HBase: longer than the materialized feed is kept for a reading user). A repin from the
 * {@link Source#REPINS} pool is dropped when its parent was shown to him, or when its parent (itself,
 * or through a sibling repin) is already in the chunk; a chunk's repins return their parents in
 * {@link Result#seenParents}, which the feed service marks shown with the chunk's pins, so the parent
 * itself and later siblings stay out. The parents come from {@link RepinParents}, one batch per chunk.
 */
public final class ContentGenerator {

    /** How many candidates beyond a source's share to read, so deferred pins and a short pool elsewhere can be made up. */
    private static final int SLACK = 10;
    /** The most entries the one read of all pools fetches (a chunk of 200 from five pools would want 1 050). */
    private static final int ONE_READ_MAX = 500;

    private final PoolStore pools;
    private final GeneratorSettings settings;
    private final Executor sourceReads;
    private final RepinParents parents;

    /** Reads the sources one after the other on the calling thread; no repin has a known parent. */
    public ContentGenerator(PoolStore pools, GeneratorSettings settings) {
        this(pools, settings, Runnable::run);
    }

    /** Reads the sources one after the other on the calling thread. */
    public ContentGenerator(PoolStore pools, GeneratorSettings settings, RepinParents parents) {
        this(pools, settings, Runnable::run, parents);
    }

    /** {@link #ContentGenerator(PoolStore, GeneratorSettings, Executor, RepinParents)} with no repin parents known. */
    public ContentGenerator(PoolStore pools, GeneratorSettings settings, Executor sourceReads) {
        this(pools, settings, sourceReads, RepinParents.NONE);
    }

    /**
     * Reads the first source on the calling thread and the others on {@code sourceReads} at the same
     * time: a chunk then waits for the slowest pool, not for the sum of them (each is a scan and an index
     * read). {@code sourceReads} must not queue behind the generations that wait on it. {@code parents}
     * names the parents of the repins pool's candidates.
     */
    public ContentGenerator(PoolStore pools, GeneratorSettings settings, Executor sourceReads, RepinParents parents) {
        this.pools = pools;
        this.settings = settings;
        this.sourceReads = sourceReads;
        this.parents = parents;
    }

    /**
     * What the generator chose, the pins it dropped for good (the caller removes them with the chosen ones), and the
     * parents of the chosen repins (the caller marks them shown with the chosen pins).
     */
    public record Result(List<FeedItem> items, List<Long> dropped, List<Long> seenParents) {
        public Result(List<FeedItem> items, List<Long> dropped) {
            this(items, dropped, List.of());
        }
    }

    /** Up to {@code size} items for {@code userId}'s next chunk, in the order to show them. */
    public Result generate(long userId, int size) {
        if (size <= 0) return new Result(List.of(), List.of());
        Set<Source> mixed = EnumSet.noneOf(Source.class);
        for (Source s : Source.values()) if (settings.share(s) > 0) mixed.add(s);
        if (mixed.isEmpty()) return new Result(List.of(), List.of());
        int want = size + SLACK;
        // One read of all his pools settles the small ones (most readers' pools are small or empty); the others are read
        // at the same time, the first on this thread.
        Map<Source, List<PoolEntry>> best = new EnumMap<>(Source.class);
        best.putAll(pools.bestOfEach(userId, mixed, want, Math.min(ONE_READ_MAX, mixed.size() * want)));
        Map<Source, CompletableFuture<List<PoolEntry>>> reads = new EnumMap<>(Source.class);
        Source first = null;
        for (Source s : mixed) {
            if (best.containsKey(s)) continue;
            if (first == null) first = s; // read below, on this thread, while the others are under way
            else reads.put(s, CompletableFuture.supplyAsync(() -> pools.best(userId, s, want), sourceReads));
        }
        if (first != null) best.put(first, pools.best(userId, first, want));
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
        Map<Long, Long> parentOf = repinParents(userId, candidates.get(Source.REPINS), dropped);
        List<Long> seenParents = new ArrayList<>();
        return new Result(interleave(candidates, size, parentOf, dropped, seenParents), dropped, seenParents);
    }

    /**
     * The parents of the repins pool's candidates (one batch), after dropping from {@code repins} every repin whose
     * parent the user was shown (one batch read of the pools' shown marks).
     */
    private Map<Long, Long> repinParents(long userId, Deque<PoolEntry> repins, List<Long> dropped) {
        if (repins == null || repins.isEmpty()) return Map.of();
        Map<Long, Long> parentOf = parents.parentsOf(repins.stream().map(PoolEntry::pinId).toList());
        if (parentOf.isEmpty()) return Map.of();
        Set<Long> seen = pools.shownAmong(userId, Set.copyOf(parentOf.values()));
        repins.removeIf(e -> {
            Long parent = parentOf.get(e.pinId());
            boolean seenBefore = parent != null && seen.contains(parent);
            if (seenBefore) dropped.add(e.pinId());
            return seenBefore;
        });
        return parentOf;
    }

    /**
     * Weighted round-robin: each next slot goes to the source furthest behind its share of the items
     * placed so far (ties: the better next pin); a source that runs dry leaves its slots to the others. A candidate
     * whose pin or parent is in the chunk already is dropped (into {@code dropped}); chosen repins' parents go to
     * {@code seenParents}.
     */
    private List<FeedItem> interleave(Map<Source, Deque<PoolEntry>> candidates, int size, Map<Long, Long> parentOf,
                                      List<Long> dropped, List<Long> seenParents) {
        List<FeedItem> out = new ArrayList<>(size);
        Map<Source, Integer> placed = new EnumMap<>(Source.class);
        Set<Long> families = new HashSet<>(); // the chunk's pins and its repins' parents: one item per parent
        while (out.size() < size) {
            // A candidate at a pool's head whose family is in the chunk already goes; then the pools' heads are all new.
            for (Deque<PoolEntry> pool : candidates.values()) {
                while (!pool.isEmpty() && families.contains(parentOf.getOrDefault(pool.peek().pinId(), pool.peek().pinId()))) {
                    dropped.add(pool.poll().pinId());
                }
            }
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
            PoolEntry chosen = candidates.get(next).poll();
            out.add(FeedItem.of(chosen));
            placed.merge(next, 1, Integer::sum);
            Long parent = parentOf.get(chosen.pinId());
            families.add(chosen.pinId());
            if (parent != null) {
                families.add(parent);
                seenParents.add(parent);
            }
        }
        return out;
    }
}
