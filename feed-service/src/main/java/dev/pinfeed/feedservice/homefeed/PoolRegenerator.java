package dev.pinfeed.feedservice.homefeed;

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
 * Refills the pools of a user the fan-out skipped (no feed read for {@code feed.active-days}): the
 * newest pins of the users he follows explicitly ({@code followed_user}) and of the boards he follows
 * ({@code followed_board}), at most {@code regenFollowees} of each, newest follows first, and
 * {@code regenPinsEach} pins apiece, scored by the worker's scorer (affinity 0: the worker's affinity
 * store is not read here; likes count). Pins already in his materialized feed, and his own, are left
 * out. Bounded: at most 2 × 200 canonical list reads and 4000 pool entries with the defaults.
 */
public final class PoolRegenerator {

    private final PoolStore pools;
    private final MaterializedFeedStore feeds;
    private final CanonicalReads canonical;
    private final GraphStore graph;
    private final Scorer scorer;
    private final HomeFeedSettings settings;

    public PoolRegenerator(PoolStore pools, MaterializedFeedStore feeds, CanonicalReads canonical, GraphStore graph, Scorer scorer,
                           HomeFeedSettings settings) {
        this.pools = pools;
        this.feeds = feeds;
        this.canonical = canonical;
        this.graph = graph;
        this.scorer = scorer;
        this.settings = settings;
    }

    /** Returns how many pool entries were written. */
    public int regenerate(long userId) {
        int n = settings.regenFollowees();
        int each = settings.regenPinsEach();
        if (n == 0 || each == 0) return 0;
        Set<Long> shown = new HashSet<>();
        for (FeedPage.Positioned p : feeds.all(userId)) shown.add(p.item().pinId());
        Map<Long, PoolEntry> entries = new LinkedHashMap<>();
        for (Edge e : graph.followingUsers(userId, null, n).items()) {
            if (e.explicit()) add(userId, Source.FOLLOWED_USER, canonical.userPins(e.id(), null, each).items(), shown, entries);
        }
        for (Edge e : graph.followingBoards(userId, null, n).items()) {
            add(userId, Source.FOLLOWED_BOARD, canonical.boardPins(e.id(), BoardPinOrder.NEWEST, 0, null, each).items(), shown, entries);
        }
        if (entries.isEmpty()) return 0;
        pools.upsert(new ArrayList<>(entries.values()), settings.poolMax(), settings.poolTrimTo());
        return entries.size();
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
