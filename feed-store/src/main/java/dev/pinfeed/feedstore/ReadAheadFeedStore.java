package dev.pinfeed.feedstore;

import dev.pinfeed.config.Mix64;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link MaterializedFeedStore} that reads a next page's following pages with it and keeps them in the process for
 * up to {@code ttl} (at least half of it, spread by user): a page after a cursor (a position of the feed) is read
 * {@code pages} pages long, and the pages after any position in what it read are answered from memory until then. A
 * reader paging forward costs one store read per {@code pages} pages, and a repeated page none.
 *
 * <p>Why it is sound: items after a position change only by removal (new chunks sort ahead of every position), and
 * this process's own writes to a user's feed (journal, materialize, removals, trim, reset) drop what it kept of him,
 * so within one process every answer is the store's. Removals by other processes (another feed-service's trim, the
 * feed-worker's purge after an unfollow or a delete, an operator's rebuild) reach a kept page at most {@code ttl}
 * later, on top of the pipeline's own lag; a deleted pin is left out of a page all the same, by its hydration. A
 * user's pending check ({@link #readUnlessPending}) is answered from memory with the pages: a chunk journaled by
 * another process sorts ahead of every kept position, and its own first page completes it.
 *
 * <p>A first page's view ({@link #firstPageView}: nothing pending, the state and the newest page) is kept for
 * {@code firstPageTtl} (0: never), for a reader who asks for his first page again within it (a burst of refreshes):
 * new pins arrive at a feed's head only through this process's own writes (its chunks: journal and materialize), which
 * drop the view, as do its state saves. Another process's chunk (another feed-service instance the reader was sent
 * to), removal or state save reaches a kept view at most {@code firstPageTtl} later, hence a shorter time to live than
 * the pages after a position.
 *
 * <p>Bounded: at most {@code maxUsers} users' pages; past it, the expired ones go, and a user who does not fit is
 * not kept.
 */
public final class ReadAheadFeedStore implements MaterializedFeedStore {

    /** Hears of each page asked after a position: answered from memory (hit) or read from the store (miss). */
    public interface Listener {
        Listener NONE = hit -> {};

        void lookup(boolean hit);

        /** Each first page's view asked for, while first pages are kept: from memory (hit) or read from the store (miss). */
        default void firstPageLookup(boolean hit) {}
    }

    /** What a user's last read-ahead found after {@code from}: {@code items} in feed order, {@code more} when the store had more. */
    private record Kept(FeedPosition from, List<FeedPage.Positioned> items, boolean more, long until) {}

    /** A user's first page view as read for {@code limit} items. */
    private record KeptView(int limit, FirstPageView view, long until) {}

    private final MaterializedFeedStore store;
    private final int pages;
    private final long ttlMillis;
    private final long firstPageTtlMillis;
    private final InstantSource clock;
    private final Listener listener;
    private final Map<Long, Kept> kept = new ConcurrentHashMap<>();
    private final Map<Long, KeptView> views = new ConcurrentHashMap<>();
    /** Bounds {@code kept} and {@code views}; nothing read while this process wrote the user is kept (a write counts inside {@code kept.compute}). */
    private final GuardedKeeps guard;

    /** Pages after a position read ahead; first pages not kept. */
    public ReadAheadFeedStore(MaterializedFeedStore store, int pages, Duration ttl, int maxUsers, InstantSource clock, Listener listener) {
        this(store, pages, ttl, Duration.ZERO, maxUsers, clock, listener);
    }

    /**
     * @param pages        how many pages a next page's read brings (at least 2: one is the page itself)
     * @param ttl          how long pages read ahead are kept (0: pages after a position are not read ahead)
     * @param firstPageTtl how long a first page's view is kept (0: not kept)
     */
    public ReadAheadFeedStore(MaterializedFeedStore store, int pages, Duration ttl, Duration firstPageTtl, int maxUsers, InstantSource clock,
                              Listener listener) {
        if (pages < 2) throw new IllegalArgumentException("pages must be >= 2: " + pages);
        if (ttl.isNegative()) throw new IllegalArgumentException("ttl must be >= 0: " + ttl);
        if (firstPageTtl.isNegative()) throw new IllegalArgumentException("firstPageTtl must be >= 0: " + firstPageTtl);
        if (maxUsers < 1) throw new IllegalArgumentException("maxUsers must be >= 1: " + maxUsers);
        this.store = store;
        this.pages = pages;
        this.ttlMillis = ttl.toMillis();
        this.firstPageTtlMillis = firstPageTtl.toMillis();
        this.guard = new GuardedKeeps(maxUsers);
        this.clock = clock;
        this.listener = listener;
    }

    /** {@code store} itself when {@code ttl} is zero (nothing read ahead), else the store reading ahead. */
    public static MaterializedFeedStore over(MaterializedFeedStore store, int pages, Duration ttl, int maxUsers, InstantSource clock,
                                             Listener listener) {
        return over(store, pages, ttl, Duration.ZERO, maxUsers, clock, listener);
    }

    /**
     * {@code store} itself when both times to live are zero (nothing kept), else the store reading ahead and keeping first
     * page views as they say.
     */
    public static MaterializedFeedStore over(MaterializedFeedStore store, int pages, Duration ttl, Duration firstPageTtl, int maxUsers,
                                             InstantSource clock, Listener listener) {
        return ttl.isZero() && firstPageTtl.isZero() ? store : new ReadAheadFeedStore(store, pages, ttl, firstPageTtl, maxUsers, clock, listener);
    }

    @Override
    public FeedPage read(long userId, FeedPosition after, int limit) {
        if (after == null || ttlMillis == 0) return store.read(userId, after, limit);
        Optional<FeedPage> kept = keptPage(userId, after, limit);
        if (kept.isPresent()) return kept.get();
        long writesBefore = guard.writesBefore(userId);
        FeedPage ahead = store.read(userId, after, readAheadLimit(limit));
        return keep(userId, after, ahead, limit, writesBefore);
    }

    @Override
    public Optional<FeedPage> readUnlessPending(long userId, FeedPosition after, int limit) {
        if (after == null || ttlMillis == 0) return store.readUnlessPending(userId, after, limit);
        Optional<FeedPage> kept = keptPage(userId, after, limit);
        if (kept.isPresent()) return kept;
        long writesBefore = guard.writesBefore(userId);
        return store.readUnlessPending(userId, after, readAheadLimit(limit)).map(ahead -> keep(userId, after, ahead, limit, writesBefore));
    }

    private int readAheadLimit(int limit) {
        return (int) Math.min(Integer.MAX_VALUE, (long) limit * pages);
    }

    /** The page after {@code after} from what was read ahead, when that holds it whole. */
    private Optional<FeedPage> keptPage(long userId, FeedPosition after, int limit) {
        Kept k = kept.get(userId);
        if (k == null || clock.millis() >= k.until()) {
            listener.lookup(false);
            return Optional.empty();
        }
        int start = -1;
        if (after.equals(k.from())) {
            start = 0;
        } else {
            for (int i = 0; i < k.items().size(); i++) {
                if (after.equals(k.items().get(i).position())) {
                    start = i + 1;
                    break;
                }
            }
        }
        int available = start < 0 ? 0 : k.items().size() - start;
        // Fewer items than asked for are the whole page only when the store had nothing after them.
        if (start < 0 || (available < limit && k.more())) {
            listener.lookup(false);
            return Optional.empty();
        }
        listener.lookup(true);
        int end = start + Math.min(limit, available);
        return Optional.of(new FeedPage(k.items().subList(start, end), available > limit || k.more()));
    }

    /** Keeps what was read ahead (unless this process wrote the user's feed meanwhile); answers its first page. */
    private FeedPage keep(long userId, FeedPosition after, FeedPage ahead, int limit, long writesBefore) {
        long now = clock.millis();
        List<FeedPage.Positioned> items = List.copyOf(ahead.items());
        guard.keep(kept, userId, new Kept(after, items, ahead.more(), now + keptFor(userId)), writesBefore, k -> now >= k.until());
        return new FeedPage(items.subList(0, Math.min(limit, items.size())), items.size() > limit || ahead.more());
    }

    /** Runs a write of the user's feed, then (whether it succeeded or not) forgets what was kept of him. */
    private void writing(long userId, Runnable write) {
        try {
            write.run();
        } finally {
            invalidate(userId);
        }
    }

    /** This process wrote the user's feed (or tried to): what was kept of him goes, and a read under way is not kept. */
    private void invalidate(long userId) {
        kept.compute(userId, (u, cur) -> {
            guard.wrote(u);
            return null;
        });
        // After the count moved: a view read before the write and kept since goes here, one kept later saw the count.
        views.remove(userId);
    }

    /**
     * Between half the time to live and all of it, by the user's id: readers who paged at the same moment (a burst, a
     * benchmark's start) then do not all read the store again at the same moment.
     */
    private long keptFor(long userId) {
        long half = ttlMillis / 2;
        return ttlMillis - Math.floorMod(Mix64.of(userId), half + 1);
    }

    @Override
    public void journal(Chunk chunk) {
        writing(chunk.userId(), () -> store.journal(chunk));
    }

    @Override
    public List<Chunk> pending(long userId) {
        return store.pending(userId);
    }

    @Override
    public void materialize(Chunk chunk) {
        writing(chunk.userId(), () -> store.materialize(chunk));
    }

    @Override
    public PendingAndState pendingAndState(long userId) {
        return store.pendingAndState(userId);
    }

    @Override
    public FirstPageView firstPageView(long userId, int limit) {
        if (firstPageTtlMillis == 0) return store.firstPageView(userId, limit);
        long now = clock.millis();
        KeptView k = views.get(userId);
        if (k != null && k.limit() == limit && now < k.until()) {
            listener.firstPageLookup(true);
            return k.view();
        }
        listener.firstPageLookup(false);
        long writesBefore = guard.writesBefore(userId);
        FirstPageView view = store.firstPageView(userId, limit);
        // Only a view that needs no write first: nothing pending, the state where it belongs.
        if (view.pending().isEmpty() && !view.stateToResave() && view.page().isPresent()) {
            guard.keep(views, userId, new KeptView(limit, view, now + firstPageTtlMillis), writesBefore, v -> now >= v.until());
        }
        return view;
    }

    @Override
    public void removePins(long userId, Collection<Long> pinIds) {
        writing(userId, () -> store.removePins(userId, pinIds));
    }

    @Override
    public List<FeedPage.Positioned> all(long userId) {
        return store.all(userId);
    }

    @Override
    public int trim(long userId, int maxItems) {
        int[] left = new int[1];
        writing(userId, () -> left[0] = store.trim(userId, maxItems));
        return left[0];
    }

    @Override
    public Optional<GeneratorState> state(long userId) {
        return store.state(userId);
    }

    @Override
    public void reset(long userId) {
        writing(userId, () -> store.reset(userId));
    }

    @Override
    public void saveState(long userId, GeneratorState state) {
        writing(userId, () -> store.saveState(userId, state));
    }

    @Override
    public void close() {
        store.close();
    }
}
