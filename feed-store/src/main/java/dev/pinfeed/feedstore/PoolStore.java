package dev.pinfeed.feedstore;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The per-user pools (seed 002): for each (user, source) a priority queue of scored pins, best
 * first. A user holds at most one entry per pin across all his pools, so a replay or a re-score
 * replaces the entry instead of adding a second one.
 */
public interface PoolStore extends AutoCloseable {

    /**
     * Adds entries, or replaces a user's existing entry for the same pin (new score, new source), except that a
     * recommendation never displaces an entry from another pool ({@link #displaces}). Idempotent.
     */
    void upsert(Collection<PoolEntry> entries);

    /**
     * Whether an entry from {@code incoming} replaces the user's existing entry of the same pin from {@code existing}:
     * always within one pool (a replay, a re-score), and across pools unless the newcomer is a recommendation
     * ({@link Source#RELATED}, {@link Source#INTERESTS}): a pin he has because he follows its author or board, or as a
     * repin, keeps that pool and score when it is also recommended to him. The one place that decides it.
     */
    static boolean displaces(Source incoming, Source existing) {
        return incoming == existing || !recommendation(incoming);
    }

    /** {@link Source#RELATED} and {@link Source#INTERESTS}: pins recommended to the user, not brought by whom he follows. */
    static boolean recommendation(Source source) {
        return source == Source.RELATED || source == Source.INTERESTS;
    }

    /**
     * {@link #upsert}, then bounds every pool the entries went to: a (user, source) pool holding more
     * than {@code maxPerSource} entries is cut back to its {@code keepPerSource} best, deterministically
     * (lowest scores go, and among equal scores the newer pin: the reverse of {@link #best}'s order).
     * Cutting below the maximum pays a pool's trim once per {@code maxPerSource - keepPerSource} new
     * pins instead of on every write. Returns how many entries the trims removed.
     *
     * <p>This default reads every touched pool; stores override it with something cheaper.
     */
    default int upsert(Collection<PoolEntry> entries, int maxPerSource, int keepPerSource) {
        checkBounds(maxPerSource, keepPerSource);
        upsert(entries);
        Map<Long, Set<Source>> touched = new HashMap<>();
        for (PoolEntry e : entries) touched.computeIfAbsent(e.userId(), u -> EnumSet.noneOf(Source.class)).add(e.source());
        int removed = 0;
        for (Map.Entry<Long, Set<Source>> t : touched.entrySet()) {
            for (Source s : t.getValue()) {
                List<PoolEntry> pool = best(t.getKey(), s, Integer.MAX_VALUE);
                if (pool.size() <= maxPerSource) continue;
                List<Long> cut = new ArrayList<>();
                for (PoolEntry e : pool.subList(keepPerSource, pool.size())) cut.add(e.pinId());
                remove(t.getKey(), cut);
                removed += cut.size();
            }
        }
        return removed;
    }

    /** One fan-out chunk of a pin: (pin, chunk index) names it across replays and re-runs of the fan-out. */
    record Delivery(long pinId, int chunkIndex) {}

    /**
     * Marks these deliveries as written to, each atomically and durably before the caller writes any
     * of its entries, and returns those marked before (by an earlier call, or a concurrent one that won):
     * replays, whose entries may be stored already. A delivery marked here for the first time has none
     * of its entries stored yet, so they may go to {@link #upsert(Collection, Predicate, int, int)} as
     * unseen. This default marks nothing and returns them all: every entry takes the checked path.
     */
    default Set<Delivery> markDelivered(Collection<Delivery> deliveries) {
        return Set.copyOf(deliveries);
    }

    /**
     * {@link #upsert(Collection, int, int)}, told which entries belong to a delivery first marked by
     * {@link #markDelivered}: a store may write those without looking for the user's old entry of the
     * pin, except recommendations, which are always checked ({@link #displaces}). Should one exist after all (the same pin written to the same user by a follow's backfill at
     * the same moment, or by another chunk of the pin that found the same user), its old row stays behind as an orphan that readers skip and delete, as after an
     * interrupted re-score. This default ignores the hint.
     */
    default int upsert(Collection<PoolEntry> entries, Predicate<PoolEntry> unseen, int maxPerSource, int keepPerSource) {
        return upsert(entries, maxPerSource, keepPerSource);
    }

    /** {@code 0 < keep <= max}, or an {@link IllegalArgumentException}. */
    static void checkBounds(int maxPerSource, int keepPerSource) {
        if (keepPerSource <= 0 || keepPerSource > maxPerSource) {
            throw new IllegalArgumentException("need 0 < keepPerSource <= maxPerSource: " + keepPerSource + ", " + maxPerSource);
        }
    }

    /** Removes the user's entries for these pins, whatever pool they sit in. Idempotent. */
    void remove(long userId, Collection<Long> pinIds);

    /**
     * {@link #remove}s the entries of pins the user was just shown (they went into his feed) and remembers that he
     * saw them, for as long as a replay of the fan-out could bring them back: a later upsert of such a pin that
     * looks for his old entry (a replayed or repeated delivery, a follow's backfill, a regeneration) leaves it out,
     * so a replay never shows him a pin twice. Idempotent. This default only removes.
     */
    default void removeShown(long userId, Collection<Long> pinIds) {
        remove(userId, pinIds);
    }

    /**
     * {@link #removeShown} of {@code shown} and {@link #remove} of {@code alsoRemoved} (pins dropped unseen), as one
     * write where the store can (a chunk shown on the read path). This default makes the two calls.
     */
    default void removeShown(long userId, Collection<Long> shown, Collection<Long> alsoRemoved) {
        removeShown(userId, shown);
        if (!alsoRemoved.isEmpty()) remove(userId, alsoRemoved);
    }

    /**
     * Those of {@code pinIds} the user was shown ({@link #removeShown}, for as long as the store remembers it): the
     * content generator leaves out a repin whose parent he saw. This default remembers nothing and returns none.
     */
    default Set<Long> shownAmong(long userId, Collection<Long> pinIds) {
        return Set.of();
    }

    /**
     * {@link #remove} for many users at once (a deleted pin leaves thousands of pools). This default
     * calls {@link #remove} per user; stores override it with one batch.
     */
    default void remove(Map<Long, ? extends Collection<Long>> pinsByUser) {
        pinsByUser.forEach(this::remove);
    }

    /** The {@code n} best entries of the user's pool for {@code source}, best first (equal scores: the older, smaller pin id first). */
    List<PoolEntry> best(long userId, Source source, int n);

    /**
     * The {@code n} best entries of each pool in {@code sources} that one read of at most {@code rowsAtMost} of the user's
     * entries settles (seed 002's pools sort user | source | score, so one scan meets every pool in turn): a pool that read
     * ended, or of which it found {@code n} entries. Pools it did not settle are absent: read them with {@link #best}. A
     * reader with small or empty pools (the usual case) costs one read instead of one per source. This default settles
     * every pool with {@link #best}, one read each.
     */
    default Map<Source, List<PoolEntry>> bestOfEach(long userId, Set<Source> sources, int n, int rowsAtMost) {
        Map<Source, List<PoolEntry>> out = new EnumMap<>(Source.class);
        for (Source s : sources) out.put(s, best(userId, s, n));
        return out;
    }

    /** Every entry of the user in every pool (pools are bounded, so this is small): for purges. */
    List<PoolEntry> all(long userId);

    /** Keeps the {@code maxPerSource} best entries of each of the user's pools; returns how many were removed. */
    int trim(long userId, int maxPerSource);

    @Override
    default void close() {}
}
