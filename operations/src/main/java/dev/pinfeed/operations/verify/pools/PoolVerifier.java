package dev.pinfeed.operations.verify.pools;

import dev.pinfeed.canonicalstore.reads.CanonicalPin;
import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.feedstore.Chunk;
import dev.pinfeed.feedstore.FeedItem;
import dev.pinfeed.feedstore.FeedPage;
import dev.pinfeed.feedstore.MaterializedFeedStore;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.PoolRows;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.scoring.Candidate;
import dev.pinfeed.feedstore.scoring.PinFacts;
import dev.pinfeed.feedstore.scoring.WeightedScorer;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The oracle of {@code ./pinfeed verify pools}, one user at a time. His pools should hold:
 * <ol>
 *   <li><b>whole entries</b>: every index row points at an entry row (else {@code dangling-index}); one entry per
 *       (user, pin). An entry row no index row points at is an orphan row, no entry: the store tolerates it (readers
 *       skip and delete it, bounds do not count it), so it is counted, and deleted by a repair;</li>
 *   <li><b>only entries he should have</b>: the pin is live in the canonical store (else {@code deleted-pin}) and
 *       he receives it now: the follower graph says he follows its board, explicitly or through its author
 *       without having unfollowed the board (else {@code extra}). The fan-out, backfills and regeneration put
 *       pins in pools by this same rule, so it justifies every entry whatever wrote it. A recommendation (the
 *       {@code related} and {@code interests} pools) is not his by the graph: only a deleted pin makes it wrong;</li>
 *   <li><b>every delivery he should still hold</b>: each ADD the fan-out delivered to him and the worker applied
 *       ({@link Deliveries}), of a pin still live that he still receives, is in his pools (any source), or in his
 *       materialized feed or journal, or among the pins the pools remember he was shown (the feed service took it
 *       out of the pools when it showed it: {@code PoolStore#removeShown}), or was cut by a trim
 *       (his pool of that source, with the pins of that source he was shown, which left it when shown, holds at
 *       least {@code feed.pool-trim-to} entries scored no lower than the lowest score the delivery can have had:
 *       those a cut kept), or was dropped unseen by the content generator (that lowest score is under
 *       {@code feed.drop-below.<source>}), or was delivered before his pools were rebuilt. Else {@code missing}.</li>
 * </ol>
 * Scores are never compared with what the worker wrote (they depend on likes and affinities at scoring
 * time): the lowest score a delivery can have had is the scorer's as of now with no likes and affinity 0; a
 * missing one is written back scored as of the chunk's time with the pin's likes now and affinity 0.
 *
 * <p>Every check also says its exact repair ({@link UserCheck}): an entry whose index row points nowhere is
 * written again where that row says, or as the best of the pin's orphan rows, if its pin belongs in his pools;
 * orphan rows are deleted; entries that do not belong go; missing deliveries are upserted within the worker's
 * bounds.
 */
public final class PoolVerifier {

    /** Live entries checked. */
    public static final String ENTRIES = "entries";
    /** Distinct (user, pin) deliveries checked. */
    public static final String DELIVERIES = "deliveries";
    /**
     * Entry rows no index row points at: the old row of a pin written again without the index read (a blind write over a
     * backfilled pin), or left when the pin's entry was removed or trimmed. The store tolerates them (readers skip and
     * delete them, bounds do not count them): counted, not a difference; a repair deletes them.
     */
    public static final String ORPHAN_ROWS = "orphan-rows";
    /** Deliveries found in the pools. */
    public static final String IN_POOLS = "in-pools";
    /** Deliveries found in the materialized feed or its journal. */
    public static final String SHOWN = "shown";
    /** Deliveries a trim may have cut. */
    public static final String TRIMMED = "trimmed";
    /** Deliveries the content generator drops unseen. */
    public static final String DROPPED = "dropped";
    /** Deliveries from before the user's pools were rebuilt ({@code feed rebuild}): superseded by the regeneration. */
    public static final String BEFORE_REBUILD = "before-rebuild";
    /** Deliveries no longer expected: the pin was deleted or the user no longer receives it. */
    public static final String WITHDRAWN = "withdrawn";

    private final MaterializedFeedStore feeds;
    private final CanonicalReads canonical;
    private final GraphStore graph;
    private final PoolCheckSettings settings;

    /** Scores as of now: the latest the worker can have scored a delivery, so the lowest score it can have given it. */
    private final WeightedScorer lowestScorer;

    /** {@code clock}: now (see {@link #lowestScorer}). */
    public PoolVerifier(MaterializedFeedStore feeds, CanonicalReads canonical, GraphStore graph, PoolCheckSettings settings, Clock clock) {
        this.feeds = feeds;
        this.canonical = canonical;
        this.graph = graph;
        this.settings = settings;
        this.lowestScorer = new WeightedScorer(settings.scoring(), clock);
    }

    /**
     * Checks the user's rows against the deliveries to him ({@link Deliveries#to}); {@code rebuiltAt}: when his pools
     * were last rebuilt ({@link PoolRows#rebuiltAt}), before which nothing delivered is expected.
     */
    public UserCheck check(PoolRows.UserRows rows, Map<Long, Deliveries.Delivery> delivered, OptionalLong rebuiltAt) {
        return new Check(rows, delivered, rebuiltAt).run();
    }

    private final class Check {
        final long user;
        final PoolRows.UserRows rows;
        final Map<Long, Deliveries.Delivery> delivered;
        final List<PoolDifference> differences = new ArrayList<>();
        final Map<String, Long> counts = new LinkedHashMap<>();
        final List<PoolEntry> restore = new ArrayList<>();
        final List<PoolEntry> deleteRows = new ArrayList<>();
        final Set<Long> remove = new TreeSet<>();
        final List<PoolEntry> add = new ArrayList<>();
        Map<Long, CanonicalPin> alive;
        Set<Long> followedBoards;

        final OptionalLong rebuiltAt;

        Check(PoolRows.UserRows rows, Map<Long, Deliveries.Delivery> delivered, OptionalLong rebuiltAt) {
            this.user = rows.userId();
            this.rows = rows;
            this.delivered = delivered;
            this.rebuiltAt = rebuiltAt;
        }

        UserCheck run() {
            Map<Long, PoolEntry> live = new TreeMap<>();
            rows.live().forEach(e -> live.put(e.pinId(), e));
            Map<Long, List<PoolEntry>> orphans = new TreeMap<>();
            rows.orphans().forEach(e -> orphans.computeIfAbsent(e.pinId(), p -> new ArrayList<>()).add(e));
            Map<Long, PoolRows.IndexRow> dangling = new TreeMap<>();
            rows.dangling().forEach(i -> dangling.put(i.pinId(), i));

            Set<Long> pins = new LinkedHashSet<>(live.keySet());
            pins.addAll(orphans.keySet());
            pins.addAll(dangling.keySet());
            pins.addAll(delivered.keySet());
            readCanonicalAndGraph(pins);

            List<PoolEntry> kept = new ArrayList<>();
            damaged(orphans, dangling, kept);
            live.values().forEach(e -> judge(e, true, kept));
            count(ENTRIES, live.size());
            deliveries(kept);
            return new UserCheck(user, differences, counts, restore, deleteRows, List.copyOf(remove), add);
        }

        private void readCanonicalAndGraph(Set<Long> pins) {
            List<Long> pinIds = pins.stream().filter(PoolVerifier::isPinId).toList(); // anything else is no live pin
            alive = pinIds.isEmpty() ? Map.of() : canonical.livePins(pinIds);
            followedBoards = graph.followedBoardsAmongAll(user, alive.values().stream().map(CanonicalPin::boardId).toList());
        }

        /** The pin is live and the user receives it. */
        private boolean belongs(long pin) {
            CanonicalPin p = alive.get(pin);
            return p != null && followedBoards.contains(p.boardId());
        }

        /**
         * Rule 1 and its repair: index rows pointing nowhere (an entry they or an orphan row of the pin stand for is judged
         * by rule 2); orphan rows are counted and deleted. An orphan row is no entry: a delivery only it holds is missing.
         */
        private void damaged(Map<Long, List<PoolEntry>> orphans, Map<Long, PoolRows.IndexRow> dangling, List<PoolEntry> kept) {
            orphans.forEach((pin, rowsOfPin) -> {
                count(ORPHAN_ROWS, rowsOfPin.size());
                if (!dangling.containsKey(pin)) deleteRows.addAll(rowsOfPin);
            });
            dangling.forEach((pin, index) -> {
                differences.add(new PoolDifference(PoolDifference.Kind.DANGLING_INDEX, user, pin,
                        "the index row names an entry (" + index.source().wireName() + ", score " + index.score() + ") that is not there"));
                List<PoolEntry> rowsOfPin = orphans.getOrDefault(pin, List.of());
                PoolEntry standsFor = rowsOfPin.stream().max(Comparator.comparingDouble(PoolEntry::score)
                        .thenComparing(e -> e.source().code())).orElseGet(() -> fromIndex(index));
                if (standsFor != null && judge(standsFor, false, kept)) {
                    restore.add(standsFor);
                    for (PoolEntry o : rowsOfPin) {
                        if (o != standsFor) deleteRows.add(o);
                    }
                } else {
                    deleteRows.addAll(rowsOfPin);
                    remove.add(pin);
                }
            });
        }

        /** The entry an index row pointing nowhere stands for, its pin's facts from the canonical store; null for a pin not live. */
        private PoolEntry fromIndex(PoolRows.IndexRow index) {
            CanonicalPin p = alive.get(index.pinId());
            if (p == null) return null;
            return new PoolEntry(user, index.source(), index.score(), p.id(), p.authorId(), p.boardId(), createdAt(p));
        }

        /**
         * Rule 2: true when the entry belongs in his pools (then it is kept); else a difference, and a live
         * entry is removed (a damaged one's repair is decided by the caller).
         */
        private boolean judge(PoolEntry e, boolean isLive, List<PoolEntry> kept) {
            CanonicalPin p = alive.get(e.pinId());
            if (p == null) {
                differences.add(new PoolDifference(PoolDifference.Kind.DELETED_PIN, user, e.pinId(),
                        "an entry (" + describe(e) + ") of a pin the canonical store does not hold live"));
            } else if (!followedBoards.contains(p.boardId()) && !PoolStore.recommendation(e.source())) {
                differences.add(new PoolDifference(PoolDifference.Kind.EXTRA, user, e.pinId(), "an entry (" + describe(e)
                        + ") of board " + p.boardId() + " by user " + p.authorId() + ", which he receives neither as the board's nor as its author's follower"));
            } else {
                kept.add(e);
                return true;
            }
            if (isLive) remove.add(e.pinId());
            return false;
        }

        /** Rule 3 over the pools as they are once repaired ({@code kept}). */
        private void deliveries(List<PoolEntry> kept) {
            count(DELIVERIES, delivered.size());
            if (delivered.isEmpty()) return;
            Set<Long> pooled = new HashSet<>();
            Map<Source, List<Double>> scores = new EnumMap<>(Source.class);
            for (PoolEntry e : kept) {
                pooled.add(e.pinId());
                scores.computeIfAbsent(e.source(), s -> new ArrayList<>()).add(e.score());
            }
            Set<Long> shown = null; // read once a delivery is not pooled
            for (Deliveries.Delivery d : new TreeMap<>(delivered).values()) {
                if (!belongs(d.pinId())) {
                    count(WITHDRAWN, 1);
                    continue;
                }
                if (pooled.contains(d.pinId())) {
                    count(IN_POOLS, 1);
                    continue;
                }
                if (rebuiltAt.isPresent() && d.deliveredAt() < rebuiltAt.getAsLong()) {
                    count(BEFORE_REBUILD, 1);
                    continue;
                }
                if (shown == null) shown = shown(scores);
                if (shown.contains(d.pinId())) {
                    count(SHOWN, 1);
                    continue;
                }
                CanonicalPin p = alive.get(d.pinId());
                PinFacts facts = new PinFacts(p.id(), p.boardId(), p.authorId(), createdAt(p));
                // The worker scored it with the likes and affinity of then, unknown now; the lowest score it can have had
                // (scored now, nothing liked, no affinity) decides whether the generator may have dropped it or a trim cut it.
                double lowest = lowestScorer.score(new Candidate(user, d.source(), facts, 0, 0));
                if (lowest < settings.dropBelow().getOrDefault(d.source(), 0.0)) {
                    count(DROPPED, 1);
                    continue;
                }
                // A cut kept the pool's feed.pool-trim-to best, all scored at least as high as this one: they are still there
                // (or shown since), though entries scored lower may have come in after the cut.
                List<Double> pool = scores.getOrDefault(d.source(), List.of());
                if (pool.stream().filter(score -> score >= lowest).count() >= settings.poolTrimTo()) {
                    count(TRIMMED, 1);
                    continue;
                }
                differences.add(new PoolDifference(PoolDifference.Kind.MISSING, user, d.pinId(), "delivered at "
                        + Instant.ofEpochMilli(d.deliveredAt()) + " as " + d.source().wireName() + ", in neither his pools nor his feed"));
                double score = new WeightedScorer(settings.scoring(), Clock.fixed(Instant.ofEpochMilli(d.deliveredAt()), ZoneOffset.UTC))
                        .score(new Candidate(user, d.source(), facts, 0, p.likes()));
                add.add(new PoolEntry(user, d.source(), score, p.id(), p.authorId(), p.boardId(), createdAt(p)));
            }
        }

        /**
         * The pins of his materialized feed and of his journaled chunks; their scores join {@code scores} (by
         * source): they were in his pools when a trim may have run.
         */
        private Set<Long> shown(Map<Source, List<Double>> scores) {
            List<FeedItem> items = new ArrayList<>();
            for (FeedPage.Positioned p : feeds.all(user)) items.add(p.item());
            for (Chunk c : feeds.pending(user)) items.addAll(c.items());
            Set<Long> out = new HashSet<>();
            for (FeedItem i : items) {
                if (out.add(i.pinId())) scores.computeIfAbsent(i.source(), s -> new ArrayList<>()).add(i.score());
            }
            out.addAll(rows.shown()); // shown earlier, and since trimmed off his feed: the pools remember it
            return out;
        }

        private void count(String name, long n) {
            counts.merge(name, n, Long::sum);
        }
    }

    private static boolean isPinId(long id) {
        try {
            return ShardedId.decode(id).type() == ObjectType.PIN;
        } catch (IllegalArgumentException notAnId) {
            return false;
        }
    }

    private static long createdAt(CanonicalPin p) {
        return p.createdAt() == null ? 0 : p.createdAt().toEpochMilli();
    }

    private static String describe(PoolEntry e) {
        return e.source().wireName() + ", score " + e.score();
    }
}
