package dev.pinfeed.feedservice.homefeed;

import dev.pinfeed.canonicalstore.reads.CanonicalReads;
import dev.pinfeed.canonicalstore.reads.InMemoryCanonicalReads;
import dev.pinfeed.contentgenerator.CelebrityPull;
import dev.pinfeed.contentgenerator.ContentGenerator;
import dev.pinfeed.contentgenerator.GeneratorSettings;
import dev.pinfeed.contentgenerator.PoolRegenerator;
import dev.pinfeed.feedstore.Chunk;
import dev.pinfeed.feedstore.FeedItem;
import dev.pinfeed.feedstore.InMemoryLastReadStore;
import dev.pinfeed.feedstore.InMemoryMaterializedFeedStore;
import dev.pinfeed.feedstore.InMemoryPoolStore;
import dev.pinfeed.feedstore.MaterializedFeedStore;
import dev.pinfeed.feedstore.MutableClock;
import dev.pinfeed.feedstore.NoticingPoolStore;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.QuietPools;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.scoring.WeightedScorer;
import dev.pinfeed.followergraph.sharded.InMemoryGraphStore;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/** A home feed over the in-memory stores, a clock the test moves, and post-answer work the test runs (or loses, as a crash). */
public final class HomeFeedFixture implements AutoCloseable {

    public static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

    /** Post-answer work, held until the test runs it or drops it (the process died). */
    public static final class Later implements Executor {
        private final Deque<Runnable> queued = new ArrayDeque<>();

        @Override
        public synchronized void execute(Runnable r) {
            queued.add(r);
        }

        public void runAll() {
            Runnable r;
            while ((r = next()) != null) r.run();
        }

        synchronized void loseAll() {
            queued.clear();
        }

        /** How many tasks wait. */
        public synchronized int queued() {
            return queued.size();
        }

        private synchronized Runnable next() {
            return queued.poll();
        }
    }

    /** Counts what the home feed reports. */
    public static final class Counts implements HomeFeedListener {
        final Map<Fallback, Integer> fallbacks = new EnumMap<>(Fallback.class);
        final List<Integer> chunkSizes = new ArrayList<>();
        int dropped;
        int afterFailures;
        final List<Boolean> lateChunks = new ArrayList<>();

        @Override
        public synchronized void lateChunk(boolean kept) {
            lateChunks.add(kept);
        }

        synchronized List<Boolean> lateChunks() {
            return List.copyOf(lateChunks);
        }

        @Override
        public synchronized void generated(java.time.Duration took, int chunkSize) {
            chunkSizes.add(chunkSize);
        }

        @Override
        public synchronized void fallback(Fallback reason) {
            fallbacks.merge(reason, 1, Integer::sum);
        }

        @Override
        public synchronized void hydrationDropped(int n) {
            dropped += n;
        }

        @Override
        public synchronized void afterAnswerFailed(RuntimeException e) {
            afterFailures++;
        }

        final Map<QuietPoolsOutcome, Integer> quietPools = new EnumMap<>(QuietPoolsOutcome.class);

        @Override
        public synchronized void quietPools(QuietPoolsOutcome outcome) {
            quietPools.merge(outcome, 1, Integer::sum);
        }

        synchronized int quiet(QuietPoolsOutcome outcome) {
            return quietPools.getOrDefault(outcome, 0);
        }
    }

    private static final AtomicLong LOCAL = new AtomicLong(1000);

    public final InMemoryPoolStore pools = new InMemoryPoolStore();
    public final InMemoryMaterializedFeedStore feeds = new InMemoryMaterializedFeedStore();
    public final InMemoryLastReadStore lastReads = new InMemoryLastReadStore();
    public final InMemoryCanonicalReads canonical = new InMemoryCanonicalReads();
    public final InMemoryGraphStore graph = new InMemoryGraphStore();
    public final MutableClock clock = new MutableClock(T0);
    public final Later later = new Later();
    public final Counts counts = new Counts();
    final ExecutorService generation = Executors.newCachedThreadPool();
    final HomeFeedSettings settings;
    private final AtomicLong chunkSeq = new AtomicLong();

    /** A generous deadline: only a generator that is held back misses it, never a slow thread start on a loaded box. */
    public HomeFeedFixture() {
        this(HomeFeedSettings.defaults().withGeneratorDeadline(Duration.ofSeconds(30)).withJournalDeadline(Duration.ofSeconds(30)));
    }

    public HomeFeedFixture(HomeFeedSettings settings) {
        this.settings = settings;
    }

    /** A home feed whose generator reads the pools through {@code poolView} (a failing or slow decorator). */
    public HomeFeed feed(UnaryOperator<PoolStore> poolView) {
        return feed(poolView, counts);
    }

    public HomeFeed feed(UnaryOperator<PoolStore> poolView, HomeFeedListener listener) {
        return feed(poolView, f -> f, c -> c, listener);
    }

    /**
     * A home feed whose generator reads the pools through {@code poolView} and whose first page waits at most
     * {@code generatorDeadline} for it: for a generator the test holds back (the wait is then certain to pass),
     * never for one that must finish in time.
     */
    public HomeFeed feed(UnaryOperator<PoolStore> poolView, Duration generatorDeadline) {
        return feed(poolView, f -> f, c -> c, counts, settings.withGeneratorDeadline(generatorDeadline));
    }

    /** A home feed that reads and writes the feed store and reads pins through these views (the generator and regenerator do not). */
    public HomeFeed feed(UnaryOperator<MaterializedFeedStore> feedView, UnaryOperator<CanonicalReads> canonicalView) {
        return feed(p -> p, feedView, canonicalView, counts);
    }

    public HomeFeed feed(UnaryOperator<MaterializedFeedStore> feedView, UnaryOperator<CanonicalReads> canonicalView, HomeFeedSettings settings) {
        return feed(p -> p, feedView, canonicalView, counts, settings);
    }

    private HomeFeed feed(UnaryOperator<PoolStore> poolView, UnaryOperator<MaterializedFeedStore> feedView,
                          UnaryOperator<CanonicalReads> canonicalView, HomeFeedListener listener) {
        return feed(poolView, feedView, canonicalView, listener, settings);
    }

    private HomeFeed feed(UnaryOperator<PoolStore> poolView, UnaryOperator<MaterializedFeedStore> feedView,
                          UnaryOperator<CanonicalReads> canonicalView, HomeFeedListener listener, HomeFeedSettings settings) {
        PoolRegenerator regenerator = new PoolRegenerator(pools, feeds, canonical, graph,
                new WeightedScorer(WeightedScorer.Settings.defaults(), clock), settings.regeneration());
        return new HomeFeed(pools, feedView.apply(feeds), lastReads, canonicalView.apply(canonical),
                new ContentGenerator(poolView.apply(pools), GeneratorSettings.defaults()), regenerator,
                settings, clock, new ChunkIds(clock, new Random(chunkSeq.incrementAndGet())), generation, later, listener);
    }

    public HomeFeed feed() {
        return feed(p -> p);
    }

    /**
     * A home feed that does not read the pools {@code quiet} knows are quiet, whose generator reads them through
     * {@code poolView}; its own pool writes (regeneration) are noticed there, as {@link #noticed} are.
     */
    public HomeFeed feed(QuietPools quiet, UnaryOperator<PoolStore> poolView) {
        PoolStore noticed = noticed(quiet);
        PoolRegenerator regenerator = new PoolRegenerator(noticed, feeds, canonical, graph,
                new WeightedScorer(WeightedScorer.Settings.defaults(), clock), settings.regeneration());
        return new HomeFeed(noticed, feeds, lastReads, canonical, new ContentGenerator(poolView.apply(pools), GeneratorSettings.defaults()),
                regenerator, CelebrityPull.NONE, quiet, settings, clock, new ChunkIds(clock, new Random(chunkSeq.incrementAndGet())),
                generation, later, counts);
    }

    /** The pools as every writer of pool entries sees them: each upsert noticed in {@code quiet}. */
    public PoolStore noticed(QuietPools quiet) {
        return NoticingPoolStore.over(pools, quiet, e -> counts.quietPools(HomeFeedListener.QuietPoolsOutcome.ERROR));
    }

    public long user() {
        long local = LOCAL.incrementAndGet();
        long id = ShardedId.compose((int) (local % 4096), ObjectType.USER, local);
        canonical.user(id, "u" + local, "User " + local, T0);
        return id;
    }

    long board(long owner) {
        long id = ShardedId.compose(ShardedId.decode(owner).shard(), ObjectType.BOARD, LOCAL.incrementAndGet());
        canonical.board(id, owner, "board", null, T0);
        return id;
    }

    /** A live pin on a fresh board of a fresh author. */
    public long pin() {
        long author = user();
        return pin(board(author), author, clock.millis());
    }

    long pin(long board, long author, long createdAt) {
        long id = ShardedId.compose(ShardedId.decode(board).shard(), ObjectType.PIN, LOCAL.incrementAndGet());
        canonical.pin(id, board, author, "pin " + id, "https://example.com/" + id, null, createdAt);
        return id;
    }

    /** Puts the pins in the user's pool for {@code source}, the first best. */
    public void pool(long user, Source source, long... pins) {
        for (int i = 0; i < pins.length; i++) {
            pools.upsert(List.of(new PoolEntry(user, source, 100.0 - i, pins[i], 1, 2, clock.millis())));
        }
    }

    /** Materializes a chunk of these pins (followed_user, score 1) as an earlier view did. */
    public void materialized(long user, long chunkId, long... pins) {
        List<FeedItem> items = new ArrayList<>();
        for (long p : pins) items.add(new FeedItem(p, Source.FOLLOWED_USER, 1.0, 1, 2));
        feeds.materialize(new Chunk(user, chunkId, items));
    }

    @Override
    public void close() {
        generation.shutdownNow();
    }
}
