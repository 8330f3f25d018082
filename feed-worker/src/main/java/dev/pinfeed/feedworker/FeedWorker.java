package dev.pinfeed.feedworker;

import dev.pinfeed.feedstore.scoring.Scorer;
import dev.pinfeed.feedstore.scoring.Candidate;
import dev.pinfeed.feedstore.scoring.PinFacts;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.events.BoardFollowed;
import dev.pinfeed.events.BoardUnfollowed;
import dev.pinfeed.events.FanoutAction;
import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.events.FanoutReceiver;
import dev.pinfeed.events.FanoutSource;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.events.PinUnliked;
import dev.pinfeed.events.UserFollowed;
import dev.pinfeed.events.UserUnfollowed;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.feedstore.FeedPage;
import dev.pinfeed.feedstore.MaterializedFeedStore;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.processorruntime.ReadHorizon;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;

/**
 * Seed 002's smart feed worker, applied a batch of events at a time:
 * <ul>
 *   <li><b>FanoutChunk ADD</b>: each (receiver, pin) is scored for that receiver ({@link Scorer}, with his
 *       affinity to the author and the pin's likes) and upserted into his pool for the chunk's source (a repin, whose chunk names its parent, into his repins pool);</li>
 *   <li><b>UserFollowed</b>: backfill — the followee's newest pins into the follower's FOLLOWED_USER pool,
 *       except those of boards he unfollowed; <b>BoardFollowed</b>: the board's newest pins, FOLLOWED_BOARD;</li>
 *   <li><b>PinLiked / PinUnliked</b>: the liker's affinity to the pin's author ({@link AffinityStore});</li>
 *   <li><b>FanoutChunk REMOVE</b> (a deleted pin): the pin leaves the receivers' pools and materialized feeds;
 *       <b>UserUnfollowed</b>: every entry by that author leaves the follower's pools and feed, except pins
 *       of boards he still follows explicitly; <b>BoardUnfollowed</b>: every entry of that board;</li>
 *   <li><b>InterestFollowed</b>: nothing (no backfill): new pins of an interest reach its followers through the fan-out,
 *       tagged INTERESTS; <b>InterestUnfollowed</b>: the pins of his interests pool carrying that interest and no other he still
 *       follows leave it (his materialized feed keeps what it showed).</li>
 * </ul>
 * Writes are batched: the scored entries of consecutive additions go to the pool store in one bounded
 * upsert (pools cut back to {@link WorkerSettings#poolTrimTo} past {@link WorkerSettings#poolMax}), and
 * the likes in one call; a removal first writes what came before it, so a batch has the effect of its
 * events in order. Every write is idempotent, so a replay changes nothing.
 *
 * <p>Events of one key (the caller's partition key: a pin, a follower) take effect in order: once one
 * of them waits, the later ones of that key in the batch wait behind it. A store outage stops the
 * batch: the events not yet written, and all after them, are {@link Verdict.Kind#UNAVAILABLE}. A follow
 * or unfollow the follower graph does not show yet, and a like of a pin the canonical store does not
 * know yet, wait up to {@link WorkerSettings#waitGrace}, and after it as long as the processors that write those (the
 * graph processor, the materializer) have not applied everything their topics held when it ran out ({@link ReadHorizon}):
 * then {@link DeadLetters#MISSING_REFERENCE}.
 */
public final class FeedWorker {

    /**
     * One input event. {@code key} orders events (null: none); {@code waitingSince} is when it first
     * had to wait (epoch ms), or -1.
     */
    public record Item(Object key, SpecificRecord event, long waitingSince) {}

    private final PoolStore pools;
    private final MaterializedFeedStore feeds;
    private final GraphStore graph;
    private final CanonicalPins canonical;
    private final AffinityStore affinity;
    private final Scorer scorer;
    private final WorkerSettings settings;
    private final Clock clock;
    private final WorkerMetrics metrics;
    private final ReadHorizon upstream;

    /** A worker whose waiting records wait their grace only ({@link ReadHorizon#CAUGHT_UP}). */
    public FeedWorker(PoolStore pools, MaterializedFeedStore feeds, GraphStore graph, CanonicalPins canonical, AffinityStore affinity,
                      Scorer scorer, WorkerSettings settings, Clock clock, WorkerMetrics metrics) {
        this(pools, feeds, graph, canonical, affinity, scorer, settings, clock, metrics, ReadHorizon.CAUGHT_UP);
    }

    /** {@code upstream}: how far the graph processor and the materializer have applied their topics. */
    public FeedWorker(PoolStore pools, MaterializedFeedStore feeds, GraphStore graph, CanonicalPins canonical, AffinityStore affinity,
                      Scorer scorer, WorkerSettings settings, Clock clock, WorkerMetrics metrics, ReadHorizon upstream) {
        this.upstream = upstream;
        this.pools = pools;
        this.feeds = feeds;
        this.graph = graph;
        this.canonical = canonical;
        this.affinity = affinity;
        this.scorer = scorer;
        this.settings = settings;
        this.clock = clock;
        this.metrics = metrics;
    }

    /** Applies the items in order; one verdict per item, same order. */
    public List<Verdict> apply(List<Item> items) {
        Batch batch = new Batch(items);
        try {
            batch.run();
        } catch (StoreUnavailableException e) {
            batch.unavailable(e);
        }
        return Arrays.asList(batch.verdicts);
    }

    /** A (receiver, pin) waiting to be scored, and the fan-out chunk it came in (null: a backfill). */
    private record Scoring(long receiverId, Source source, PinFacts pin, PoolStore.Delivery delivery) {}

    /**
     * The pool a chunk's pin goes to for one of its receivers (the one place that decides it; {@code verify pools}
     * expects the same): a recommendation (related pins, a followed interest) its own pool, else a repin (the chunk
     * names its parent) the repins pool, else the receiver's reason.
     */
    public static Source sourceOf(FanoutChunk c, FanoutReceiver r) {
        switch (r.getSource()) {
            case RELATED: return Source.RELATED;
            case INTERESTS: return Source.INTERESTS;
            default: break;
        }
        if (c.getParentPinId() != null) return Source.REPINS;
        return r.getSource() == FanoutSource.FOLLOWED_BOARD ? Source.FOLLOWED_BOARD : Source.FOLLOWED_USER;
    }

    private final class Batch {
        final List<Item> items;
        final Verdict[] verdicts;
        /** Keys with an event that waits: later events of the key wait behind it. */
        final Map<Object, Verdict> blocked = new HashMap<>();
        /** Items whose writes are collected below and not yet made. */
        final List<Integer> pending = new ArrayList<>();
        final List<Scoring> scorings = new ArrayList<>();
        final List<AffinityStore.LikeChange> likes = new ArrayList<>();
        Map<Long, Optional<PinFacts>> likedPins = Map.of();
        /** The newest pins of each user followed in this batch: its backfills, read together. */
        Map<Long, List<PinFacts>> followeesPins = Map.of();

        Batch(List<Item> items) {
            this.items = items;
            this.verdicts = new Verdict[items.size()];
        }

        void run() {
            long deadline = clock.millis() + settings.batchBudget().toMillis();
            prefetchLikedPins();
            prefetchFolloweesPins();
            for (int i = 0; i < items.size(); i++) {
                if (i > 0 && clock.millis() >= deadline) { // the first always goes: every turn makes progress
                    Verdict later = Verdict.deferred("the batch's " + settings.batchBudget().toMillis() + " ms ran out after "
                            + i + " of " + items.size() + " events");
                    for (int j = i; j < items.size(); j++) verdicts[j] = later;
                    break;
                }
                Item item = items.get(i);
                Verdict blocker = item.key() == null ? null : blocked.get(item.key());
                if (blocker != null) {
                    verdicts[i] = Verdict.behind(blocker);
                    continue;
                }
                Verdict v = handle(i, item);
                if (v == null) {
                    pending.add(i);
                } else {
                    verdicts[i] = v;
                    if (v.kind() == Verdict.Kind.WAITING && item.key() != null) blocked.put(item.key(), v);
                }
            }
            flush();
        }

        /** Every item without a verdict yet — the ones collected but not written, and the rest — waits for the store. */
        void unavailable(StoreUnavailableException e) {
            for (int i = 0; i < verdicts.length; i++) {
                if (verdicts[i] == null) verdicts[i] = Verdict.unavailable(e);
            }
        }

        /** The pins liked or unliked in this batch, in one read: the author of each decides whose affinity moves. */
        private void prefetchLikedPins() {
            Set<Long> pins = new HashSet<>();
            for (Item item : items) {
                if (item.event() instanceof PinLiked l) pins.add(l.getPinId());
                if (item.event() instanceof PinUnliked u) pins.add(u.getPinId());
            }
            if (!pins.isEmpty()) likedPins = canonical.pins(pins);
        }

        /**
         * The newest pins of every user this batch's user follows name, in one read (one statement per MySQL host where
         * one per follow cost a round trip each and, under load, a table opened per shard database each).
         */
        private void prefetchFolloweesPins() {
            Set<Long> followees = new LinkedHashSet<>();
            for (Item item : items) {
                if (item.event() instanceof UserFollowed f) followees.add(f.getFolloweeId());
            }
            if (!followees.isEmpty()) followeesPins = canonical.newestOfUsers(followees, settings.backfillPins());
        }

        /** The event's verdict, or null when its writes were collected for the next {@link #flush}. */
        private Verdict handle(int i, Item item) {
            SpecificRecord e = item.event();
            if (e instanceof FanoutChunk c) {
                return c.getAction() == FanoutAction.ADD ? add(c) : deleted(c);
            } else if (e instanceof PinLiked l) {
                return like(item, l.getUserId(), l.getPinId(), true);
            } else if (e instanceof PinUnliked u) {
                return like(item, u.getUserId(), u.getPinId(), false);
            } else if (e instanceof UserFollowed f) {
                return followedUser(i, item, f);
            } else if (e instanceof BoardFollowed f) {
                return followedBoard(i, f);
            } else if (e instanceof UserUnfollowed u) {
                return unfollowedUser(i, item, u);
            } else if (e instanceof BoardUnfollowed u) {
                return unfollowedBoard(i, u);
            } else if (e instanceof dev.pinfeed.events.InterestFollowed) {
                // An interest's pins reach its followers through the fan-out only: no backfill.
                return Verdict.APPLIED;
            } else if (e instanceof dev.pinfeed.events.InterestUnfollowed u) {
                return unfollowedInterest(i, item, u);
            }
            return Verdict.rejected(DeadLetters.UNEXPECTED_EVENT, "feed-worker does not handle " + e.getSchema().getName());
        }

        private Verdict add(FanoutChunk c) {
            PinFacts pin = new PinFacts(c.getPinId(), c.getBoardId(), c.getAuthorId(), c.getPinCreatedAt().toEpochMilli());
            PoolStore.Delivery delivery = new PoolStore.Delivery(c.getPinId(), c.getChunkIndex());
            for (FanoutReceiver r : c.getReceivers()) {
                Source source = sourceOf(c, r);
                // A recommendation never claims a delivery mark: its (pin, chunk index) is not a fan-out of its own (it would take
                // the pin's marker), and its entry must take the checked path (left out if shown, never displacing a follow's entry).
                scorings.add(new Scoring(r.getUserId(), source, pin, PoolStore.recommendation(source) ? null : delivery));
            }
            return null;
        }

        private Verdict deleted(FanoutChunk c) {
            flush();
            Map<Long, List<Long>> byReceiver = new LinkedHashMap<>();
            for (FanoutReceiver r : c.getReceivers()) byReceiver.put(r.getUserId(), List.of(c.getPinId()));
            pools.remove(byReceiver);
            for (Long receiver : byReceiver.keySet()) feeds.removePins(receiver, List.of(c.getPinId()));
            metrics.removed(WorkerMetrics.DELETE, byReceiver.size());
            return Verdict.APPLIED;
        }

        private Verdict like(Item item, long user, long pinId, boolean liked) {
            Optional<PinFacts> pin = likedPins.get(pinId);
            if (pin == null) return waitOrGiveUp(item, "pin " + pinId + " is not in the canonical store yet");
            if (pin.isEmpty()) return Verdict.APPLIED; // deleted: it is in no pool any more, its author's affinity does not matter
            likes.add(new AffinityStore.LikeChange(user, pinId, pin.get().authorId(), liked));
            return null;
        }

        private Verdict followedUser(int i, Item item, UserFollowed f) {
            long follower = f.getFollowerId();
            long followee = f.getFolloweeId();
            if (follower == followee || undoneLater(i, UserUnfollowed.class, u -> u.getFollowerId() == follower && u.getFolloweeId() == followee)) {
                return Verdict.APPLIED; // nothing to backfill: a later event of this batch takes the follow back
            }
            if (!graph.relation(follower, followee).explicit()) {
                return waitOrGiveUp(item, "the follower graph does not show " + follower + " following " + followee + " yet");
            }
            List<PinFacts> newest = followeesPins.getOrDefault(followee, List.of());
            // Boards he unfollowed after (or regardless of) following their owner stay out: the graph's rules decide.
            Set<Long> followed = graph.followedBoardsAmongAll(follower, newest.stream().map(PinFacts::boardId).toList());
            int n = 0;
            for (PinFacts p : newest) {
                if (!followed.contains(p.boardId())) continue;
                scorings.add(new Scoring(follower, Source.FOLLOWED_USER, p, null));
                n++;
            }
            metrics.backfilled(n);
            return null;
        }

        private Verdict followedBoard(int i, BoardFollowed f) {
            long follower = f.getFollowerId();
            long board = f.getBoardId();
            if (undoneLater(i, BoardUnfollowed.class, u -> u.getFollowerId() == follower && u.getBoardId() == board)) return Verdict.APPLIED;
            List<PinFacts> newest = canonical.newestOfBoard(board, settings.backfillPins());
            for (PinFacts p : newest) scorings.add(new Scoring(follower, Source.FOLLOWED_BOARD, p, null));
            metrics.backfilled(newest.size());
            return null;
        }

        private Verdict unfollowedUser(int i, Item item, UserUnfollowed u) {
            long follower = u.getFollowerId();
            long followee = u.getFolloweeId();
            if (undoneLater(i, UserFollowed.class, f -> f.getFollowerId() == follower && f.getFolloweeId() == followee)) return Verdict.APPLIED;
            if (graph.relation(follower, followee).explicit()) {
                return waitOrGiveUp(item, "the follower graph still shows " + follower + " following " + followee);
            }
            flush();
            List<PoolEntry> entries = pools.all(follower).stream().filter(e -> e.authorId() == followee).toList();
            List<FeedPage.Positioned> shown = feeds.all(follower).stream().filter(p -> p.item().authorId() == followee).toList();
            Set<Long> boards = new LinkedHashSet<>();
            entries.forEach(e -> boards.add(e.boardId()));
            shown.forEach(p -> boards.add(p.item().boardId()));
            Set<Long> kept = graph.followedBoardsAmongAll(follower, boards); // now only his explicit board follows
            purge(follower, entries, shown, e -> !kept.contains(e.boardId()), p -> !kept.contains(p.item().boardId()), WorkerMetrics.UNFOLLOW_USER);
            return Verdict.APPLIED;
        }

        private Verdict unfollowedBoard(int i, BoardUnfollowed u) {
            long follower = u.getFollowerId();
            long board = u.getBoardId();
            if (undoneLater(i, BoardFollowed.class, f -> f.getFollowerId() == follower && f.getBoardId() == board)) return Verdict.APPLIED;
            flush();
            purge(follower, pools.all(follower), feeds.all(follower), e -> e.boardId() == board, p -> p.item().boardId() == board,
                    WorkerMetrics.UNFOLLOW_BOARD);
            return Verdict.APPLIED;
        }

        /**
         * The interest's pins leave his interests pool: those carrying it and no other interest he still follows (a pin he got as
         * followed_user or followed_board is not in that pool). His materialized feed keeps what it showed.
         */
        private Verdict unfollowedInterest(int i, Item item, dev.pinfeed.events.InterestUnfollowed u) {
            long follower = u.getFollowerId();
            long interest = u.getInterestId();
            if (undoneLater(i, dev.pinfeed.events.InterestFollowed.class, f -> f.getFollowerId() == follower && f.getInterestId() == interest)) {
                return Verdict.APPLIED;
            }
            if (graph.followsInterest(follower, interest)) {
                return waitOrGiveUp(item, "the follower graph still shows " + follower + " following interest " + interest);
            }
            flush();
            List<PoolEntry> entries = pools.all(follower).stream().filter(e -> e.source() == Source.INTERESTS).toList();
            if (entries.isEmpty()) return Verdict.APPLIED;
            Map<Long, List<Long>> carried = canonical.interestsOf(entries.stream().map(PoolEntry::pinId).distinct().toList());
            Map<Long, Boolean> stillFollowed = new HashMap<>();
            List<Long> gone = new ArrayList<>();
            for (PoolEntry e : entries) {
                List<Long> interests = carried.getOrDefault(e.pinId(), List.of());
                if (!interests.contains(interest)) continue;
                boolean kept = false;
                for (long other : interests) {
                    if (other != interest && stillFollowed.computeIfAbsent(other, o -> graph.followsInterest(follower, o))) kept = true;
                }
                if (!kept) gone.add(e.pinId());
            }
            pools.remove(follower, gone);
            metrics.removed(WorkerMetrics.UNFOLLOW_INTEREST, gone.size());
            return Verdict.APPLIED;
        }

        private void purge(long user, List<PoolEntry> entries, List<FeedPage.Positioned> shown, Predicate<PoolEntry> poolGoes,
                           Predicate<FeedPage.Positioned> feedGoes, String reason) {
            List<Long> fromPools = entries.stream().filter(poolGoes).map(PoolEntry::pinId).toList();
            List<Long> fromFeed = shown.stream().filter(feedGoes).map(p -> p.item().pinId()).distinct().toList();
            pools.remove(user, fromPools);
            feeds.removePins(user, fromFeed);
            metrics.removed(reason, fromPools.size());
        }

        /** Whether a later event of this batch undoes item {@code i} (a follow taken back, an unfollow followed again). */
        private <T> boolean undoneLater(int i, Class<T> type, Predicate<T> sameEdge) {
            for (int j = i + 1; j < items.size(); j++) {
                Object e = items.get(j).event();
                if (type.isInstance(e) && sameEdge.test(type.cast(e))) return true;
            }
            return false;
        }

        private Verdict waitOrGiveUp(Item item, String detail) {
            long since = item.waitingSince();
            long graceEnd = since + settings.waitGrace().toMillis();
            if (since >= 0 && clock.millis() >= graceEnd && upstream.readAllUntil() >= graceEnd) {
                return Verdict.rejected(DeadLetters.MISSING_REFERENCE, detail + " (still after " + settings.waitGrace().toSeconds() + " s)");
            }
            return Verdict.waiting(DeadLetters.MISSING_REFERENCE, detail);
        }

        /**
         * Writes what the pending items collected: likes, then the scored entries in one bounded upsert.
         * The fan-out chunks among them are marked delivered first: a chunk marked now for the first
         * time was never written, so its entries skip the store's look for an older entry of their pin;
         * a replayed one takes the checked path.
         */
        private void flush() {
            if (pending.isEmpty()) return;
            if (!likes.isEmpty()) affinity.apply(likes);
            if (!scorings.isEmpty()) {
                List<PoolEntry> entries = score();
                Set<PoolStore.Delivery> deliveries = new LinkedHashSet<>();
                for (Scoring s : scorings) {
                    if (s.delivery() != null) deliveries.add(s.delivery());
                }
                Set<PoolStore.Delivery> before = deliveries.isEmpty() ? Set.of() : pools.markDelivered(deliveries);
                Set<PoolEntry> unseen = Collections.newSetFromMap(new IdentityHashMap<>());
                for (int i = 0; i < entries.size(); i++) {
                    PoolStore.Delivery d = scorings.get(i).delivery();
                    if (d != null && !before.contains(d)) unseen.add(entries.get(i));
                }
                metrics.removed(WorkerMetrics.TRIM, pools.upsert(entries, unseen::contains, settings.poolMax(), settings.poolTrimTo()));
                entries.forEach(e -> metrics.written(e.source(), e.score()));
            }
            for (int i : pending) verdicts[i] = Verdict.APPLIED;
            pending.clear();
            likes.clear();
            scorings.clear();
        }

        private List<PoolEntry> score() {
            Set<Long> pins = new HashSet<>();
            Set<AffinityStore.Pair> pairs = new HashSet<>();
            for (Scoring s : scorings) {
                pins.add(s.pin().pinId());
                pairs.add(new AffinityStore.Pair(s.receiverId(), s.pin().authorId()));
            }
            Map<Long, Long> likeCounts = canonical.likeCounts(pins);
            Map<AffinityStore.Pair, Long> affinities = affinity.affinities(pairs);
            List<PoolEntry> entries = new ArrayList<>(scorings.size());
            for (Scoring s : scorings) {
                PinFacts p = s.pin();
                long a = affinities.getOrDefault(new AffinityStore.Pair(s.receiverId(), p.authorId()), 0L);
                double score = scorer.score(new Candidate(s.receiverId(), s.source(), p, a, likeCounts.getOrDefault(p.pinId(), 0L)));
                entries.add(new PoolEntry(s.receiverId(), s.source(), score, p.pinId(), p.authorId(), p.boardId(), p.createdAtMillis()));
            }
            return entries;
        }
    }
}
