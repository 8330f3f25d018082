package dev.pinfeed.operations.feed;

import dev.pinfeed.contentgenerator.PoolRegenerator;
import dev.pinfeed.feedstore.GeneratorState;
import dev.pinfeed.feedstore.MaterializedFeedStore;
import dev.pinfeed.feedstore.PendingAndState;
import dev.pinfeed.feedstore.PoolRows;
import dev.pinfeed.feedstore.PoolStore;
import java.time.Clock;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code ./pinfeed feed rebuild}, one user: his pools are emptied (every row: entries, orphan rows, index
 * rows) and filled again by {@link PoolRegenerator} from what he follows now, and his materialized view is
 * reset (items, journal, generator state), so his next first page generates afresh from the new pools.
 * The pools remember when ({@link PoolRows#markRebuilt}): {@code verify pools} expects no delivery from before.
 * The state keeps only his last read (so the fan-out's activity rule and the feed service's regeneration
 * of a returning user still agree); the chunk size goes back to the configured one. Each step is
 * idempotent: a rebuild interrupted or repeated ends the same way.
 */
public final class FeedRebuilder {

    /** What a user had before, and how many pool entries the regeneration wrote (or would write, on a dry run). */
    public record Outcome(long userId, int poolEntries, int damagedPoolRows, int feedItems, int pendingChunks, int regenerated) {}

    private final PoolStore pools;
    private final PoolRows rows;
    private final MaterializedFeedStore feeds;
    private final PoolRegenerator regenerator;
    private final Clock clock;

    /** {@code pools} and {@code rows}: the same store. */
    public FeedRebuilder(PoolStore pools, PoolRows rows, MaterializedFeedStore feeds, PoolRegenerator regenerator, Clock clock) {
        this.pools = pools;
        this.rows = rows;
        this.feeds = feeds;
        this.regenerator = regenerator;
        this.clock = clock;
    }

    /** Rebuilds the user's pools and view; {@code dryRun}: only says what it would do. */
    public Outcome rebuild(long userId, boolean dryRun) {
        PoolRows.UserRows before = rows.rows(userId);
        int items = feeds.all(userId).size();
        PendingAndState journal = feeds.pendingAndState(userId);
        int pending = journal.pending().size();
        Optional<GeneratorState> state = journal.state();
        int damaged = before.orphans().size() + before.dangling().size();
        if (dryRun) {
            return new Outcome(userId, before.live().size(), damaged, items, pending, regenerator.plan(userId, Set.of()).size());
        }
        Set<Long> indexed = new TreeSet<>();
        before.live().forEach(e -> indexed.add(e.pinId()));
        before.dangling().forEach(i -> indexed.add(i.pinId()));
        pools.remove(userId, indexed);
        rows.deleteEntryRows(before.orphans());
        rows.forgetShown(userId); // a feed rebuilt from scratch may show them again
        rows.markRebuilt(userId, clock.millis()); // what was delivered before is superseded by the regeneration
        feeds.reset(userId);
        long lastRead = state.map(GeneratorState::lastReadMillis).orElse(0L);
        if (lastRead > 0) feeds.saveState(userId, new GeneratorState(0, lastRead, 0)); // 0: the configured chunk size
        int regenerated = regenerator.regenerate(userId);
        return new Outcome(userId, before.live().size(), damaged, items, pending, regenerated);
    }
}
