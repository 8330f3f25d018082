package dev.pinfeed.contentgenerator;

import dev.pinfeed.canonicalstore.reads.BoardPinOrder;
import dev.pinfeed.canonicalstore.reads.CanonicalPin;
import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.feedstore.FeedPage;
import dev.pinfeed.feedstore.MaterializedFeedStore;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.scoring.Candidate;
import dev.pinfeed.feedstore.scoring.PinFacts;
import dev.pinfeed.feedstore.scoring.Scorer;
import dev.pinfeed.followergraph.Edge;
import dev.pinfeed.followergraph.GraphStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Fills a user's pools from what he follows now instead of from the fan-out: the newest pins of the users
 * he follows explicitly ({@code followed_user}; pins of their boards he unfollowed left out, as the
 * worker's backfill does), of the boards he follows ({@code followed_board}) and of the interests he follows
 * ({@code interests}; a pin he gets through a followed user or board stays that), at most
 * {@link RegenerationSettings#followees} of each, newest follows first, and
 * {@link RegenerationSettings#pinsEach} pins apiece, scored by the worker's scorer (affinity 0: the
 * worker's affinity store is not read here; likes count) and written within the worker's pool bounds.
 * Pins already in his materialized feed, and his own, are left out. Bounded: at most 3 × 200 canonical
 * list reads and 4000 pool entries with the defaults.
 *
 * <p>Used by the feed service for a user the fan-out skipped (no feed read for {@code feed.active-days})
 * and by {@code ./pinfeed feed rebuild}.
 */
public final class PoolRegenerator {

    private final PoolStore pools;
    private final MaterializedFeedStore feeds;
    private final CanonicalReads canonical;
    private final GraphStore graph;
    private final Scorer scorer;
    private final RegenerationSettings settings;

    public PoolRegenerator(PoolStore pools, MaterializedFeedStore feeds, CanonicalReads canonical, GraphStore graph, Scorer scorer,
                           RegenerationSettings settings) {
        this.pools = pools;
        this.feeds = feeds;
        this.canonical = canonical;
        this.graph = graph;
        this.scorer = scorer;
        this.settings = settings;
    }

    /** Writes {@link #plan}'s entries into the user's pools; returns how many were written. */
    public int regenerate(long userId) {
        List<PoolEntry> entries = plan(userId);
        if (entries.isEmpty()) return 0;
        pools.upsert(entries, settings.poolMax(), settings.poolTrimTo());
        return entries.size();
    }

    /** The entries {@link #regenerate} would write, one per pin (a pin of a followed user and board: followed_user); nothing is written. */
    public List<PoolEntry> plan(long userId) {
        Set<Long> shown = new HashSet<>();
        for (FeedPage.Positioned p : feeds.all(userId)) shown.add(p.item().pinId());
        return plan(userId, shown);
    }

    /** {@link #plan}, leaving out {@code shown} instead of the pins of his materialized feed (for a feed about to be reset: none). */
    public List<PoolEntry> plan(long userId, Set<Long> shown) {
        int n = settings.followees();
        int each = settings.pinsEach();
        if (n == 0 || each == 0) return List.of();
        List<CanonicalPin> ofUsers = new ArrayList<>();
        for (Edge e : graph.followingUsers(userId, null, n).items()) {
            if (e.explicit()) ofUsers.addAll(canonical.userPins(e.id(), null, each).items());
        }
        Set<Long> boards = graph.followedBoardsAmongAll(userId, ofUsers.stream().map(CanonicalPin::boardId).toList());
        Map<Long, PoolEntry> entries = new LinkedHashMap<>();
        add(userId, Source.FOLLOWED_USER, ofUsers.stream().filter(p -> boards.contains(p.boardId())).toList(), shown, entries);
        for (Edge e : graph.followingBoards(userId, null, n).items()) {
            add(userId, Source.FOLLOWED_BOARD, canonical.boardPins(e.id(), BoardPinOrder.NEWEST, 0, null, each).items(), shown, entries);
        }
        for (Edge e : graph.followingInterests(userId, null, n).items()) {
            add(userId, Source.INTERESTS, canonical.interestPins(e.id(), null, each).items(), shown, entries);
        }
        return List.copyOf(entries.values());
    }

    private void add(long userId, Source source, List<CanonicalPin> pins, Set<Long> shown, Map<Long, PoolEntry> out) {
        for (CanonicalPin p : pins) {
            if (shown.contains(p.id()) || p.authorId() == userId || out.containsKey(p.id())) continue;
            long created = p.createdAt() == null ? 0 : p.createdAt().toEpochMilli();
            PinFacts facts = new PinFacts(p.id(), p.boardId(), p.authorId(), created);
            double score = scorer.score(new Candidate(userId, source, facts, 0, p.likes()));
            out.put(p.id(), new PoolEntry(userId, source, score, p.id(), p.authorId(), p.boardId(), created));
        }
    }
}
