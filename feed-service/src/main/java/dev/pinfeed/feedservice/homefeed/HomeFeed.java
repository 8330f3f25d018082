package dev.pinfeed.feedservice.homefeed;

import dev.pinfeed.canonicalstore.reads.CanonicalPin;
import dev.pinfeed.canonicalstore.reads.LivePins;
import dev.pinfeed.config.Futures;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.contentgenerator.PoolPull;
import dev.pinfeed.contentgenerator.ContentGenerator;
import dev.pinfeed.contentgenerator.PoolRegenerator;
import dev.pinfeed.feedstore.Chunk;
import dev.pinfeed.feedstore.FeedItem;
import dev.pinfeed.feedstore.FeedPage;
import dev.pinfeed.feedstore.FeedPosition;
import dev.pinfeed.feedstore.FirstPageView;
import dev.pinfeed.feedstore.GeneratorState;
import dev.pinfeed.feedstore.LastReadStore;
import dev.pinfeed.feedstore.MaterializedFeedStore;
import dev.pinfeed.feedstore.PoolStore;
import dev.pinfeed.feedstore.QuietPools;
import dev.pinfeed.feedstore.Source;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Seed 002's smart feed service: a user's home feed, new pins first, then the materialized feed.
 *
 * <p>A first page (no cursor): complete the user's pending chunks (journaled, maybe shown, not yet
 * materialized: a crash left them), regenerate his pools if the fan-out skipped him, then pull the pins
 * of the celebrities and popular interests he follows into his pools ({@link PoolPull}: the fan-out left them out) and run the
 * content generator (bounded by {@code feed.generator-deadline-ms}) while reading the materialized
 * feed's first page. A chunk in time is journaled (the commit point, before the answer; the page's
 * pins are read meanwhile) and served ahead of the materialized items; after the answer its pins
 * leave the pools, it is materialized, the feed trimmed if it may have outgrown its maximum
 * ({@link GeneratorState#materializedItems}) and the state saved. A generator that fails or is late
 * costs this view its new pins: the materialized feed is served and the next chunk is larger; a late
 * chunk is still materialized when it is done, so the next view shows it. A generation still running for the
 * user in this process is joined, not repeated: a newer first page waits for it within its own deadline and shows its
 * chunk if it comes in time, and otherwise leaves it to land as that late chunk.
 *
 * <p>A next page (cursor = position of the last item served): complete pending chunks (so the items
 * of a chunk being paged through exist), then read after the position; the usual case, nothing
 * pending, is one read of the store ({@link MaterializedFeedStore#readUnlessPending}).
 *
 * <p>Items are hydrated with their pins in one batch; a deleted or unknown pin is left out and taken
 * out of the user's feed after the answer. Every store is a port ({@link PoolStore},
 * {@link MaterializedFeedStore}, {@link LivePins}), so a speculative primary/standby reader can
 * sit behind them.
 */
public final class HomeFeed {

    /** One served item: the pin, why it came and its score for the user. */
    public record Item(CanonicalPin pin, Source source, double score) {}

    /** A page; {@code cursor} is null on the last page. */
    public record Page(List<Item> items, String cursor) {}

    private final PoolStore pools;
    private final MaterializedFeedStore feeds;
    private final LastReadStore lastReads;
    private final LivePins canonical;
    private final ContentGenerator generator;
    private final PoolRegenerator regenerator;
    private final PoolPull pulls;
    private final QuietPools quietPools;
    private final HomeFeedSettings settings;
    private final Clock clock;
    private final ChunkIds chunkIds;
    private final Executor generation;
    private final Executor afterAnswer;
    private final HomeFeedListener listener;
    /** Per user, the generation running in this process. */
    private final Map<Long, Generation> generating = new ConcurrentHashMap<>();

    /** A generation's result that chose and dropped nothing. */
    private static final ContentGenerator.Result NOTHING = new ContentGenerator.Result(List.of(), List.of());

    /**
     * One run of the content generator for a user, which every first page of his in this process joins while it runs: a
     * reader who reloads before a slow generation is done waits for the same chunk instead of asking the pools for
     * another (that would read them again and leave the first chunk to be dropped, its work lost).
     */
    private static final class Generation {
        final CompletableFuture<ContentGenerator.Result> result = new CompletableFuture<>();
        /** Set by whoever shows or materializes the chunk: a page that had it in time, or its late landing. */
        final AtomicBoolean taken = new AtomicBoolean();
        /** Set by the first page that found it late: that page schedules its landing. */
        final AtomicBoolean landingScheduled = new AtomicBoolean();
        /** The newest first page that joined it: a read newer than that (another process's) drops its late chunk. */
        final AtomicLong newestReadAt;

        Generation(long readAt) {
            this.newestReadAt = new AtomicLong(readAt);
        }
    }

    /**
     * @param lastReads   where a first page records the read for the fan-out's active-receiver policy
     * @param generation  runs the content generator beside the request thread's materialized read
     * @param afterAnswer runs the post-answer writes (materialize, pool removals, trim, state)
     */
    public HomeFeed(PoolStore pools, MaterializedFeedStore feeds, LastReadStore lastReads, LivePins canonical, ContentGenerator generator,
                    PoolRegenerator regenerator, HomeFeedSettings settings, Clock clock, ChunkIds chunkIds, Executor generation,
                    Executor afterAnswer, HomeFeedListener listener) {
        this(pools, feeds, lastReads, canonical, generator, regenerator, PoolPull.NONE, settings, clock, chunkIds, generation,
                afterAnswer, listener);
    }

    /** @param pulls pulls the pins of the celebrities and popular interests the reader follows into his pools before each generation */
    public HomeFeed(PoolStore pools, MaterializedFeedStore feeds, LastReadStore lastReads, LivePins canonical, ContentGenerator generator,
                    PoolRegenerator regenerator, PoolPull pulls, HomeFeedSettings settings, Clock clock, ChunkIds chunkIds,
                    Executor generation, Executor afterAnswer, HomeFeedListener listener) {
        this(pools, feeds, lastReads, canonical, generator, regenerator, pulls, QuietPools.NONE, settings, clock, chunkIds, generation,
                afterAnswer, listener);
    }

    /**
     * @param quietPools which readers' pools hold nothing to generate: their generation does not read them. Every writer
     *                   of pool entries must notice its writes there ({@link dev.pinfeed.feedstore.NoticingPoolStore}),
     *                   {@code pools}, the regenerator's and the pull's included
     */
    public HomeFeed(PoolStore pools, MaterializedFeedStore feeds, LastReadStore lastReads, LivePins canonical, ContentGenerator generator,
                    PoolRegenerator regenerator, PoolPull pulls, QuietPools quietPools, HomeFeedSettings settings, Clock clock,
                    ChunkIds chunkIds, Executor generation, Executor afterAnswer, HomeFeedListener listener) {
        this.pulls = pulls;
        this.quietPools = quietPools;
        this.pools = pools;
        this.feeds = feeds;
        this.lastReads = lastReads;
        this.canonical = canonical;
        this.generator = generator;
        this.regenerator = regenerator;
        this.settings = settings;
        this.clock = clock;
        this.chunkIds = chunkIds;
        this.generation = generation;
        this.afterAnswer = afterAnswer;
        this.listener = listener;
    }

    /**
     * Up to {@code limit} items of the user's feed after {@code cursor} (null: the first page, with new
     * pins). The caller checked that the user exists. Throws {@link FeedCursor.BadCursorException} for a
     * cursor this feed did not issue, {@link dev.pinfeed.config.StoreUnavailableException} when a store
     * the answer needs is down.
     */
    public Page read(long userId, String cursor, int limit) {
        if (limit < 1) throw new IllegalArgumentException("limit must be >= 1: " + limit);
        FeedPosition after = cursor == null ? null : FeedCursor.parse(cursor);
        if (after != null) {
            // A next page: the pending check and the page in one read; only a user with a pending chunk pays two more.
            Optional<FeedPage> page = feeds.readUnlessPending(userId, after, limit);
            if (page.isPresent()) return nextPage(userId, page.get(), null);
            completePending(feeds.pending(userId));
            return nextPage(userId, feeds.read(userId, after, limit), null);
        }
        // The pending check, the state (the generator needs its chunk size) and the materialized page in one read.
        FirstPageView view = feeds.firstPageView(userId, limit);
        boolean completed = completePending(view.pending());
        int completedItems = completed ? view.pending().stream().mapToInt(c -> c.items().size()).sum() : 0;
        // Completed chunks change the stored state (its item count), so it is written after this page whatever it shows;
        // so is a state found where an older layout kept it.
        Optional<GeneratorState> stored = completedItems > 0 || view.stateToResave() ? Optional.empty() : view.state();
        return firstPage(userId, limit, view.state().map(s -> s.plusItems(completedItems)), stored, completed, view.page());
    }

    /**
     * Up to {@code limit} items of the user's materialized feed after {@code cursor}, touching nothing: no
     * generation, journal, pending completion, last read or state, and a deleted pin is left out of the
     * answer but not taken out of the feed. For callers who are not the user (a service reading on his
     * behalf), so that only his own reads make him active. Pins of a chunk journaled but not yet
     * materialized are not shown until his next read completes it.
     */
    public Page peek(long userId, String cursor, int limit) {
        if (limit < 1) throw new IllegalArgumentException("limit must be >= 1: " + limit);
        // Deleted pins are collected here, not taken out of the feed after the answer.
        return nextPage(userId, feeds.read(userId, cursor == null ? null : FeedCursor.parse(cursor), limit), new ArrayList<>());
    }

    /** The page hydrated; {@code dropped}: where deleted pins go, null to take them out of the feed after the answer. */
    private Page nextPage(long userId, FeedPage page, List<Long> dropped) {
        List<FeedPage.Positioned> items = page.items();
        FeedPosition last = items.isEmpty() ? null : items.get(items.size() - 1).position();
        List<Item> hydrated = hydrate(userId, items.stream().map(FeedPage.Positioned::item).toList(), dropped);
        return new Page(hydrated, page.more() ? FeedCursor.of(last) : null);
    }

    /**
     * {@code stored}: the state as stored, when {@code saved} is that state (nothing completed changed it), else empty;
     * {@code materializedPage}: the materialized page when it was read with the state (nothing was pending), else empty.
     */
    private Page firstPage(long userId, int limit, Optional<GeneratorState> saved, Optional<GeneratorState> stored, boolean pendingCompleted,
                           Optional<FeedPage> materializedPage) {
        long now = clock.millis();
        GeneratorState state = saved.orElse(GeneratorState.initial(settings.chunkSize()));
        if (returning(state, now)) regenerator.regenerate(userId);
        int size = state.nextChunkSize() > 0 ? state.nextChunkSize() : settings.chunkSize();
        long started = System.nanoTime();
        // Pools this process found quiet a moment ago: an empty chunk, without a generation (no store call, no hand-off).
        boolean remembered = pendingCompleted && quietPools.knownQuiet(userId);
        if (remembered) listener.quietPools(HomeFeedListener.QuietPoolsOutcome.REMEMBERED);
        // With a pending chunk still in the pools (its completion failed), a new chunk could repeat its pins: none this time.
        Generation run = pendingCompleted && !remembered ? joinOrStart(userId, size, state.lastReadMillis(), now) : null;
        CompletableFuture<ContentGenerator.Result> generated = run == null ? CompletableFuture.completedFuture(remembered ? NOTHING : null) : run.result;
        FeedPage materialized = materializedPage.orElseGet(() -> feeds.read(userId, null, limit));
        ContentGenerator.Result result = pendingCompleted ? await(generated, started) : null;
        // A joined generation's chunk may have been shown by the page that started it: shown once, by whoever takes it.
        if (result != null && run != null && !run.taken.compareAndSet(false, true)) result = null;
        // Late, not failed: still running, or done just after the deadline (or taken by another page: nothing to land).
        boolean late = pendingCompleted && result == null && !generated.isCompletedExceptionally();
        long newestMaterialized = materialized.items().isEmpty() ? 0 : materialized.items().get(0).position().chunkId();

        Chunk chunk = result == null || result.items().isEmpty() ? null : new Chunk(userId, chunkIds.next(newestMaterialized), result.items());
        int nextSize = result == null ? settings.grown(size) : settings.chunkSize();
        // The journal write is the commit point (once shown, a crash must not lose the chunk) and the answer
        // waits for it; the pins are read meanwhile, for the page with the chunk and for the page without it.
        Chunk toJournal = chunk;
        CompletableFuture<Void> journaled = chunk == null ? null : CompletableFuture.runAsync(() -> feeds.journal(toJournal), generation);
        Map<Long, CanonicalPin> pins = livePins(chunk == null ? List.of() : head(chunk.items(), limit),
                head(materialized.items().stream().map(FeedPage.Positioned::item).toList(), limit));
        if (journaled != null && !journaledInTime(journaled)) {
            chunk = null;
            nextSize = settings.grown(size);
        }

        List<FeedItem> items = new ArrayList<>(limit);
        FeedPosition last = null;
        int available = materialized.items().size() + (materialized.more() ? 1 : 0);
        if (chunk != null) {
            available += chunk.items().size();
            for (int i = 0; i < chunk.items().size() && items.size() < limit; i++) {
                items.add(chunk.items().get(i));
                last = new FeedPosition(chunk.chunkId(), i);
            }
        }
        for (FeedPage.Positioned p : materialized.items()) {
            if (items.size() == limit) break;
            items.add(p.item());
            last = p.position();
        }
        List<Long> dropped = new ArrayList<>();
        List<Item> hydrated = hydrated(userId, items, pins, dropped);

        Chunk shown = chunk;
        List<Long> droppedByGenerator = result == null ? List.of() : result.dropped();
        List<Long> seenParents = result == null ? List.of() : result.seenParents();
        GeneratorState shownState = shown == null ? state : state.plusItems(shown.items().size());
        int nextChunkSize = nextSize;
        // The feed is scanned to trim it only once it may have outgrown its maximum (or its size is not known).
        boolean mayTrim = shownState.materializedItems() == GeneratorState.UNKNOWN_ITEMS || shownState.materializedItems() > settings.materializedMax();
        // A page that changed nothing has no work after its answer: no hand-off to the after-answer threads.
        if (shown == null && droppedByGenerator.isEmpty() && dropped.isEmpty() && !mayTrim && !late
                && unchanged(stored, nextChunkSize, shownState.materializedItems(), now)) {
            return new Page(hydrated, available > items.size() ? FeedCursor.of(last) : null);
        }
        after(() -> {
            if (shown != null) complete(shown, droppedByGenerator, seenParents);
            else if (!droppedByGenerator.isEmpty()) pools.remove(userId, droppedByGenerator);
            if (!dropped.isEmpty()) feeds.removePins(userId, dropped);
            int feedItems = mayTrim ? feeds.trim(userId, settings.materializedMax()) : shownState.materializedItems();
            if (late) {
                saveRead(userId, now, state, nextChunkSize, feedItems);
                if (run.landingScheduled.compareAndSet(false, true)) keepLate(userId, run, newestMaterialized);
            } else if (!unchanged(stored, nextChunkSize, feedItems, now)) {
                saveRead(userId, now, state, nextChunkSize, feedItems);
            }
        });
        return new Page(hydrated, available > items.size() ? FeedCursor.of(last) : null);
    }

    /**
     * The read recorded and the state saved. The fan-out's record first, and the state's read moves only once a replica
     * holds that record: so the fan-out never sees an older read than the state, and a user it skipped returns as one
     * ({@link LastReadStore}).
     */
    private void saveRead(long userId, long now, GeneratorState state, int nextChunkSize, int feedItems) {
        long lastRead = lastReads.recordRead(userId, now) ? now : state.lastReadMillis();
        feeds.saveState(userId, new GeneratorState(nextChunkSize, lastRead, feedItems));
    }

    /**
     * Whether this page left the stored state as it was, but for a last read less than {@code feed.last-read-resolution-ms}
     * old: then neither the state nor the read is written (most pages of a reader who reads often show nothing new). A
     * page with a late generation always writes, so that the late chunk sees a newer read started ({@link #keepLate}).
     */
    private boolean unchanged(Optional<GeneratorState> stored, int nextChunkSize, int feedItems, long now) {
        if (stored.isEmpty()) return false;
        GeneratorState s = stored.get();
        return s.nextChunkSize() == nextChunkSize && s.materializedItems() == feedItems && s.lastReadMillis() > 0
                && now - s.lastReadMillis() < settings.lastReadResolution().toMillis();
    }

    /**
     * Seed 002: a chunk that came too late is not shown now, but "eventually the user will see new
     * Pins": once the generation finishes, the chunk is journaled and materialized like one in time, so
     * the next view shows it (measured before this: on a loaded box every generation missed the 50 ms
     * deadline and a user's feed stayed empty however often he read it). Unless a page that joined it showed
     * it, or a first page newer than every page that joined it ran meanwhile (in another process: here it would
     * have joined): its generator may have picked the same pins, so this chunk is dropped and its pins, never
     * removed, stay in the pools.
     */
    private void keepLate(long userId, Generation run, long newestMaterialized) {
        run.result.thenAcceptAsync(r -> {
            if (r.items().isEmpty() || !run.taken.compareAndSet(false, true)) return;
            if (feeds.state(userId).map(s -> s.lastReadMillis() > run.newestReadAt.get()).orElse(false)) {
                listener.lateChunk(false);
                return;
            }
            Chunk chunk = new Chunk(userId, chunkIds.next(newestMaterialized), r.items());
            feeds.journal(chunk);
            complete(chunk, r.dropped(), r.seenParents());
            listener.lateChunk(true);
        }, afterAnswer).exceptionally(e -> {
            listener.afterAnswerFailed(e instanceof RuntimeException re ? re : new IllegalStateException(e));
            return null;
        });
    }

    /** Not read for {@code activeDays}: the fan-out left him out, so his pools hold nothing of that time. */
    private boolean returning(GeneratorState state, long now) {
        return settings.activeDays() > 0 && state.lastReadMillis() > 0
                && now - state.lastReadMillis() > TimeUnit.DAYS.toMillis(settings.activeDays());
    }

    /**
     * The user's generation: the one running in this process, joined as of {@code readAt}, or a new one on the
     * generation executor (gone from the map once done, so a later page starts its own).
     */
    private Generation joinOrStart(long userId, int size, long lastReadMillis, long readAt) {
        Generation fresh = new Generation(readAt);
        Generation run = generating.compute(userId, (user, running) -> {
            if (running == null || running.result.isDone()) return fresh;
            running.newestReadAt.accumulateAndGet(readAt, Math::max);
            return running;
        });
        if (run != fresh) return run;
        try {
            CompletableFuture.supplyAsync(() -> timed(userId, size, lastReadMillis), generation).whenComplete((r, e) -> {
                generating.remove(userId, fresh);
                if (e != null) fresh.result.completeExceptionally(e);
                else fresh.result.complete(r);
            });
        } catch (RuntimeException e) { // the executor refused it
            generating.remove(userId, fresh);
            fresh.result.completeExceptionally(e);
        }
        return fresh;
    }

    /**
     * The celebrities' and popular interests' pins pulled into the pools (within the deadline: they are part of the chunk), then the generation,
     * unless the pools are quiet (nothing written to them since a generation found nothing there, {@link QuietPools}): then
     * the chunk is empty without reading them. A generation that found nothing marks them quiet.
     */
    private ContentGenerator.Result timed(long userId, int size, long lastReadMillis) {
        long t0 = System.nanoTime();
        try {
            pulls.pull(userId, lastReadMillis);
        } catch (RuntimeException e) {
            listener.afterAnswerFailed(e); // the pools' pins are still served; the next read pulls again
        }
        QuietPools.Look look = QuietPools.Look.UNKNOWN;
        try {
            look = quietPools.look(userId);
        } catch (RuntimeException e) {
            listener.quietPools(HomeFeedListener.QuietPoolsOutcome.ERROR); // not known: the pools are read
        }
        if (look.quiet()) {
            listener.quietPools(HomeFeedListener.QuietPoolsOutcome.SKIPPED);
            return NOTHING;
        }
        ContentGenerator.Result r = generator.generate(userId, size);
        listener.generated(Duration.ofNanos(System.nanoTime() - t0), r.items().size());
        if (r.items().isEmpty() && r.dropped().isEmpty() && look.ticket() != null) {
            try {
                if (quietPools.markQuiet(userId, look)) listener.quietPools(HomeFeedListener.QuietPoolsOutcome.MARKED);
            } catch (RuntimeException e) {
                listener.quietPools(HomeFeedListener.QuietPoolsOutcome.ERROR); // unmarked: the next generation reads them
            }
        }
        return r;
    }

    /** The generator's result, or null when it failed or missed the deadline (counted as a fallback). */
    /**
     * Whether the chunk's journal write returned within {@code feed.journal-deadline-ms}. A failed or late write costs
     * the page its chunk, not the answer: a late one that lands after all leaves the chunk pending, for the next read.
     */
    private boolean journaledInTime(CompletableFuture<Void> journaled) {
        try {
            journaled.get(settings.journalDeadline().toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            listener.fallback(HomeFeedListener.Fallback.DEADLINE);
        } catch (ExecutionException e) {
            listener.fallback(HomeFeedListener.Fallback.ERROR);
            listener.afterAnswerFailed(e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            listener.fallback(HomeFeedListener.Fallback.ERROR);
        }
        return false;
    }

    private ContentGenerator.Result await(CompletableFuture<ContentGenerator.Result> generated, long startedNanos) {
        long left = settings.generatorDeadline().toNanos() - (System.nanoTime() - startedNanos);
        try {
            return generated.get(Math.max(0, left), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            listener.fallback(HomeFeedListener.Fallback.DEADLINE); // the generation goes on: see keepLate
        } catch (ExecutionException e) {
            listener.fallback(HomeFeedListener.Fallback.ERROR);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            listener.fallback(HomeFeedListener.Fallback.ERROR);
        }
        return null;
    }

    /**
     * Chunks journaled but not materialized: a crash (or the post-answer work not done yet) left them.
     * The user may have seen them, so they go into the feed now, before anything reads the pools.
     * False when a store was unavailable: then nothing may be generated (it could repeat their pins).
     */
    private boolean completePending(List<Chunk> pending) {
        if (pending.isEmpty()) return true;
        // Writes to both clusters on the answer path: bounded like the journal write, so a cluster that has just died
        // (not yet known down: its writes hang for the client's timeouts) cannot hold the page. A completion still
        // running goes on and is idempotent; until it is done this read neither generates nor shows the chunks.
        CompletableFuture<Void> done = CompletableFuture.runAsync(() -> {
            for (Chunk c : pending) complete(c, List.of(), List.of());
        }, generation);
        try {
            done.get(settings.journalDeadline().toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            listener.afterAnswerFailed(new StoreUnavailableException("hbase", "pending chunks not completed within feed.journal-deadline-ms"));
            return false;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof StoreUnavailableException down) {
                // A cluster is down (pending read from the other): the chunks stay journaled and a later read completes
                // them; this one is answered from the materialized feed rather than failing (a 503 per read).
                listener.afterAnswerFailed(down);
                return false;
            }
            if (e.getCause() instanceof RuntimeException bug) throw bug;
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Pools first, then the feed: while the journal entry exists a replay redoes both, and once it is
     * gone the pins are out of the pools, so the generator never picks a pin already in the feed. The pools
     * remember the pins shown, so a replayed delivery of one (an operator's replay) never puts it back. The parents of
     * the chunk's repins ({@code seenParents}) count as shown too: the parent and its other repins stay out of his
     * feed (ContentGenerator). A pending chunk completed after a crash does not know them: its repins' parents may
     * come once more.
     */
    private void complete(Chunk chunk, List<Long> alsoDropped, List<Long> seenParents) {
        Set<Long> shownSet = new LinkedHashSet<>();
        chunk.items().forEach(i -> shownSet.add(i.pinId()));
        shownSet.addAll(seenParents);
        List<Long> shown = List.copyOf(shownSet);
        Set<Long> dropped = new LinkedHashSet<>(alsoDropped);
        shown.forEach(dropped::remove);
        pools.removeShown(chunk.userId(), shown, dropped);
        feeds.materialize(chunk);
    }

    /** The items whose pin is live, in order; the others' pin ids go to {@code dropped} (or are removed after the answer). */
    private List<Item> hydrate(long userId, List<FeedItem> items, List<Long> dropped) {
        if (items.isEmpty()) return List.of();
        return hydrated(userId, items, livePins(items), dropped);
    }

    /** The live pins among the items of these lists, in one batch. */
    @SafeVarargs
    private Map<Long, CanonicalPin> livePins(List<FeedItem>... lists) {
        Set<Long> ids = new LinkedHashSet<>();
        for (List<FeedItem> items : lists) items.forEach(i -> ids.add(i.pinId()));
        return ids.isEmpty() ? Map.of() : canonical.livePins(List.copyOf(ids));
    }

    private static <T> List<T> head(List<T> list, int n) {
        return list.size() <= n ? list : list.subList(0, n);
    }

    /** {@link #hydrate} with the pins already read ({@code pins} holds at least every live pin of {@code items}). */
    private List<Item> hydrated(long userId, List<FeedItem> items, Map<Long, CanonicalPin> pins, List<Long> dropped) {
        if (items.isEmpty()) return List.of();
        List<Item> out = new ArrayList<>(items.size());
        List<Long> gone = dropped != null ? dropped : new ArrayList<>();
        Map<Source, Integer> bySource = new EnumMap<>(Source.class);
        for (FeedItem i : items) {
            CanonicalPin pin = pins.get(i.pinId());
            if (pin == null) {
                gone.add(i.pinId());
            } else {
                out.add(new Item(pin, i.source(), i.score()));
                bySource.merge(i.source(), 1, Integer::sum);
            }
        }
        bySource.forEach(listener::served);
        if (!gone.isEmpty()) {
            listener.hydrationDropped(gone.size());
            if (dropped == null) after(() -> feeds.removePins(userId, gone));
        }
        return out;
    }

    private void after(Runnable work) {
        try {
            afterAnswer.execute(() -> {
                try {
                    work.run();
                } catch (RuntimeException e) {
                    listener.afterAnswerFailed(e); // the journal, or the next view, redoes it
                }
            });
        } catch (RuntimeException rejected) {
            listener.afterAnswerFailed(rejected);
        }
    }
}
