package dev.pinfeed.contentgenerator;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedstore.CelebrityPins;
import dev.pinfeed.feedstore.CelebrityPins.RecentPin;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.scoring.Candidate;
import dev.pinfeed.feedstore.scoring.PinFacts;
import dev.pinfeed.feedstore.scoring.Scorer;
import dev.pinfeed.followergraph.GraphStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The read half of celebrities: the fan-out does not push a celebrity's pins (it records them in
 * {@link CelebrityPins}), so a reader's first page pulls them into his own pools just before the content
 * generator reads them, and from there they go like any pool entry (interleaved, shown once, removed).
 *
 * <p>For the reader: the celebrities he follows (the celebrity set, cached for {@code setCache}, against
 * the graph's {@code followedAmong}: explicit or through boards), their recorded pins created since his
 * last read minus {@code overlap} (a pin recorded late, behind the pipeline, is still found), kept only if
 * he follows the pin's board now (as the fan-out's receivers: an unfollowed board of a followed user is
 * left out). The source is the one the fan-out would have given: {@code followed_user} when he follows the
 * author explicitly, {@code followed_board} otherwise. Scored by the worker's scorer (affinity 0 and likes 0,
 * as for a pin fanned out at creation without affinity), written with the pools' checked upsert: a pin he was
 * already shown is left out and a repeat pull replaces his entry, so pulling twice shows nothing twice. A pull writes
 * only what this process has not pulled for him already ({@link PulledPins}): the overlap, and every page of a reader
 * who reads often, would otherwise write the same entries again on each first page. A
 * reader who follows no celebrity costs one graph call per {@link GraphStore#MAX_BATCH} celebrities; with the
 * set empty, nothing. A later unfollow or board unfollow purges the pulled entries as any (the worker), and
 * a deleted pin is out of the store (the fan-out) and, if already pulled, left out by hydration.
 */
public final class CelebrityPull implements PoolPull {

    /**
     * @param overlap    how far before the reader's last read the pull looks ({@code feed.celebrity.pull-overlap-ms}, 10 min)
     * @param setCache   how long the celebrity set is reused ({@code feed.celebrity.set-cache-ms}, 10 s): a new celebrity's
     *                   pins reach his followers at most this much later
     * @param poolMax    the worker's pool bound ({@code feed.pool-max})
     * @param poolTrimTo what a pool past it is cut back to ({@code feed.pool-trim-to})
     * @param remembered pulled pins this process remembers, over all readers ({@code feed.celebrity.remembered-pins},
     *                   100 000; 0: none, every pull writes everything again)
     */
    public record Settings(Duration overlap, Duration setCache, int poolMax, int poolTrimTo, int remembered) {

        public Settings {
            if (overlap.isNegative() || setCache.isNegative()) throw new IllegalArgumentException("feed.celebrity.* must be >= 0");
            if (remembered < 0) throw new IllegalArgumentException("feed.celebrity.remembered-pins must be >= 0: " + remembered);
            PoolStore.checkBounds(poolMax, poolTrimTo);
        }

        /** Where a pull for a reader who last read at {@code lastReadMillis} starts: the overlap before it (0: never read, everything). */
        long since(long lastReadMillis) {
            return lastReadMillis <= 0 ? 0 : Math.max(0, lastReadMillis - overlap.toMillis());
        }

        public static Settings defaults() {
            RegenerationSettings r = RegenerationSettings.defaults();
            return new Settings(Duration.ofMinutes(10), Duration.ofSeconds(10), r.poolMax(), r.poolTrimTo(), 100_000);
        }

        public static Settings from(PinfeedConfig config) {
            Settings d = defaults();
            RegenerationSettings r = RegenerationSettings.from(config);
            return new Settings(Duration.ofMillis(config.getInt("feed.celebrity.pull-overlap-ms", (int) d.overlap().toMillis())),
                    Duration.ofMillis(config.getInt("feed.celebrity.set-cache-ms", (int) d.setCache().toMillis())), r.poolMax(), r.poolTrimTo(),
                    config.getInt("feed.celebrity.remembered-pins", d.remembered()));
        }
    }

    /** Pulls nothing: celebrities off, or a test without them. */
    public static final CelebrityPull NONE = new CelebrityPull(null, CelebrityPins.NONE, null, null, Settings.defaults(), Clock.systemUTC());

    private final GraphStore graph;
    private final CelebrityPins pins;
    private final PoolStore pools;
    private final Scorer scorer;
    private final Settings settings;
    private final Clock clock;
    private final PulledPins pulled;
    private final ReusedSet celebrities;

    public CelebrityPull(GraphStore graph, CelebrityPins pins, PoolStore pools, Scorer scorer, Settings settings, Clock clock) {
        this.graph = graph;
        this.pins = pins;
        this.pools = pools;
        this.scorer = scorer;
        this.settings = settings;
        this.clock = clock;
        this.pulled = new PulledPins(settings.remembered());
        this.celebrities = new ReusedSet(pins::celebrities, settings.setCache(), clock);
    }

    /**
     * Pulls into {@code userId}'s pools the pins of the celebrities he follows that this process has not pulled for him
     * already (with the same source); returns how many entries were written.
     */
    @Override
    public int pull(long userId, long lastReadMillis) {
        return pulled.writeNew(userId, plan(userId, lastReadMillis), settings.since(lastReadMillis), pools, settings.poolMax(), settings.poolTrimTo());
    }

    /** The entries {@link #pull} would write; nothing is written. */
    public List<PoolEntry> plan(long userId, long lastReadMillis) {
        if (pins == CelebrityPins.NONE) return List.of();
        List<Long> known = new ArrayList<>(celebrities.get());
        known.remove(userId);
        if (known.isEmpty()) return List.of();
        List<Long> followed = new ArrayList<>();
        for (int from = 0; from < known.size(); from += GraphStore.MAX_BATCH) {
            followed.addAll(graph.followedAmong(userId, known.subList(from, Math.min(known.size(), from + GraphStore.MAX_BATCH))));
        }
        if (followed.isEmpty()) return List.of();
        Map<Long, List<RecentPin>> recent = pins.recent(followed, settings.since(lastReadMillis));
        if (recent.isEmpty()) return List.of();
        List<Long> boards = new ArrayList<>();
        recent.values().forEach(l -> l.forEach(p -> boards.add(p.boardId())));
        Set<Long> followedBoards = graph.followedBoardsAmongAll(userId, boards);
        Map<Long, Boolean> explicit = new HashMap<>();
        List<PoolEntry> out = new ArrayList<>();
        for (Map.Entry<Long, List<RecentPin>> e : recent.entrySet()) {
            for (RecentPin p : e.getValue()) {
                if (!followedBoards.contains(p.boardId())) continue;
                Source source = explicit.computeIfAbsent(e.getKey(), a -> graph.relation(userId, a).explicit())
                        ? Source.FOLLOWED_USER : Source.FOLLOWED_BOARD;
                PinFacts facts = new PinFacts(p.pinId(), p.boardId(), p.authorId(), p.createdAtMillis());
                double score = scorer.score(new Candidate(userId, source, facts, 0, 0));
                out.add(new PoolEntry(userId, source, score, p.pinId(), p.authorId(), p.boardId(), p.createdAtMillis()));
            }
        }
        return out;
    }
}
