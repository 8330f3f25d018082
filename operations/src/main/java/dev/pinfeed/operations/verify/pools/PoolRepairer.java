package dev.pinfeed.operations.verify.pools;

import dev.pinfeed.feedstore.PoolRows;
import dev.pinfeed.feedstore.PoolStore;

/**
 * Applies a {@link UserCheck}'s repair to the pools (the primary cluster's: never a replica). Every step is
 * idempotent, so a repair interrupted or run twice leaves the same pools: damaged entries that belong are
 * written again where they were (entry and index row), orphan rows and rows that do not belong are
 * deleted, entries that do not belong are removed, then the missing deliveries are upserted through the
 * worker's bounded write ({@code feed.pool-max}, {@code feed.pool-trim-to}).
 */
public final class PoolRepairer {

    private final PoolStore pools;
    private final PoolRows rows;
    private final PoolCheckSettings settings;

    /** {@code pools} and {@code rows}: the same store. */
    public PoolRepairer(PoolStore pools, PoolRows rows, PoolCheckSettings settings) {
        this.pools = pools;
        this.rows = rows;
        this.settings = settings;
    }

    /** Returns how many rows or entries it wrote or removed (0: nothing to repair). */
    public int repair(UserCheck check) {
        if (!check.restore().isEmpty()) pools.upsert(check.restore());
        if (!check.deleteRows().isEmpty()) rows.deleteEntryRows(check.deleteRows());
        if (!check.remove().isEmpty()) pools.remove(check.userId(), check.remove());
        if (!check.add().isEmpty()) pools.upsert(check.add(), settings.poolMax(), settings.poolTrimTo());
        return check.restore().size() + check.deleteRows().size() + check.remove().size() + check.add().size();
    }
}
