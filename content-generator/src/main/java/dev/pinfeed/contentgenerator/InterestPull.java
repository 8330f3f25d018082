package dev.pinfeed.contentgenerator;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedstore.CelebrityPins.RecentPin;
import dev.pinfeed.feedstore.InterestPins;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.scoring.Candidate;
import dev.pinfeed.feedstore.scoring.PinFacts;
import dev.pinfeed.feedstore.scoring.Scorer;
import dev.pinfeed.followergraph.Edge;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.Page;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The read half of popular interests: the fan-out does not push a pin to a popular interest's followers (it records it in
 * {@link InterestPins}), so a reader's first page pulls the pins of the popular interests he follows into his interests
 * pool just before the content generator reads it, as {@link CelebrityPull} does for celebrities, with its settings
 * ({@code feed.celebrity.pull-overlap-ms}, {@code feed.celebrity.set-cache-ms}, {@code feed.celebrity.remembered-pins}).
 *
 * <p>For the reader: the popular interests (the set, reused for a while) among those he follows (his interests, one graph
 * page), the newest {@code feed.interest.pull-pins} (25) of each one's recorded pins created since his last read minus the
 * overlap, each pin once, less his own pins and the pins
 * of boards he follows (explicitly or through their owner): those reach him as {@code followed_user} /
 * {@code followed_board}, which wins, as in the fan-out. Scored by the worker's scorer as a new pin (affinity and likes 0)
 * with source {@code interests}, written with the pools' checked upsert (shown pins left out, a repeat replaces), only what
 * this process has not pulled for him already. An unfollow of the interest purges the pulled entries as any (the worker),
 * and he pulls nothing of it after; a deleted pin leaves the store (the fan-out) and, if pulled, the pools (the REMOVE walk).
 *
 * <p>Why a few per interest: a popular interest's pins outnumber what a reader's pages show of his interests pool (the pool
 * is cut to its bound by score, which favours the newest), and what a pull writes is what this process must remember
 * not to write again: with all of an interest's 200 recorded pins, the demo's 400 benched readers overflowed that memory
 * and every first page wrote its reader's few hundred entries again.
 */
public final class InterestPull implements PoolPull {

    /** {@code feed.interest.pull-pins}'s default: each popular interest's newest this many pins are pulled. */
    public static final int PINS_EACH = 25;

    /** {@code feed.interest.pull-pins} (25): how many of each popular interest's newest pins a pull takes at most. */
    public static int pinsEach(PinfeedConfig config) {
        int n = config.getInt("feed.interest.pull-pins", PINS_EACH);
        if (n < 1) throw new IllegalArgumentException("feed.interest.pull-pins must be at least 1: " + n);
        return n;
    }

    private final GraphStore graph;
    private final InterestPins pins;
    private final PoolStore pools;
    private final Scorer scorer;
    private final CelebrityPull.Settings settings;
    private final int pinsEach;
    private final PulledPins pulled;
    private final ReusedSet popular;

    /** @param pinsEach how many of each popular interest's newest pins a pull takes at most ({@link #pinsEach(PinfeedConfig)}) */
    public InterestPull(GraphStore graph, InterestPins pins, PoolStore pools, Scorer scorer, CelebrityPull.Settings settings, int pinsEach,
                        Clock clock) {
        this.graph = graph;
        this.pins = pins;
        this.pools = pools;
        this.scorer = scorer;
        this.settings = settings;
        this.pinsEach = pinsEach;
        this.pulled = new PulledPins(settings.remembered());
        this.popular = new ReusedSet(pins::popular, settings.setCache(), clock);
    }

    @Override
    public int pull(long userId, long lastReadMillis) {
        return pulled.writeNew(userId, plan(userId, lastReadMillis), settings.since(lastReadMillis), pools, settings.poolMax(), settings.poolTrimTo());
    }

    /** The entries {@link #pull} would write; nothing is written. */
    public List<PoolEntry> plan(long userId, long lastReadMillis) {
        if (pins == InterestPins.NONE) return List.of();
        Set<Long> popularNow = popular.get();
        if (popularNow.isEmpty()) return List.of();
        List<Long> followed = new ArrayList<>();
        String cursor = null;
        do {
            Page<Edge> page = graph.followingInterests(userId, cursor, GraphStore.MAX_PAGE);
            for (Edge e : page.items()) if (popularNow.contains(e.id())) followed.add(e.id());
            cursor = page.nextCursor();
        } while (cursor != null);
        if (followed.isEmpty()) return List.of();
        Map<Long, RecentPin> byPin = new LinkedHashMap<>();
        for (List<RecentPin> recent : pins.recent(followed, settings.since(lastReadMillis), pinsEach).values()) {
            for (RecentPin p : recent) if (p.authorId() != userId) byPin.putIfAbsent(p.pinId(), p);
        }
        if (byPin.isEmpty()) return List.of();
        Set<Long> boards = new LinkedHashSet<>();
        byPin.values().forEach(p -> boards.add(p.boardId()));
        Set<Long> followedBoards = graph.followedBoardsAmongAll(userId, List.copyOf(boards));
        List<PoolEntry> out = new ArrayList<>(byPin.size());
        for (RecentPin p : byPin.values()) {
            if (followedBoards.contains(p.boardId())) continue;
            PinFacts facts = new PinFacts(p.pinId(), p.boardId(), p.authorId(), p.createdAtMillis());
            double score = scorer.score(new Candidate(userId, Source.INTERESTS, facts, 0, 0));
            out.add(new PoolEntry(userId, Source.INTERESTS, score, p.pinId(), p.authorId(), p.boardId(), p.createdAtMillis()));
        }
        return out;
    }
}
