package dev.pinfeed.feedworker;

import dev.pinfeed.config.PinfeedConfig;
import java.time.Duration;

/**
 * How the worker bounds and fills pools.
 *
 * @param poolMax      most entries a (user, source) pool holds ({@code feed.pool-max}, 500)
 * @param poolTrimTo   what a pool past {@code poolMax} is cut back to ({@code feed.pool-trim-to}, 90 % of the max):
 *                     the cut scans the pool, so it is paid once per {@code poolMax - poolTrimTo} new pins
 * @param backfillPins newest pins a new follow brings ({@code feed.worker.backfill-pins}, 50)
 * @param waitGrace    how long a record may wait for another store to catch up (the follower graph for
 *                     a follow, the canonical store for a liked pin) before it is dead-lettered
 *                     ({@code feed.worker.wait-s}, 120), once the processors writing those have also applied
 *                     what their topics held when it ran out
 * @param batchBudget  how long one batch's events may take before the rest are deferred to the next turn
 *                     ({@code feed.worker.batch-budget-ms}, 15 000): under load a poll of 500 follows, each reading the
 *                     followee's newest pins, took minutes, past the loop's stall limit and the group's poll interval
 */
public record WorkerSettings(int poolMax, int poolTrimTo, int backfillPins, Duration waitGrace, Duration batchBudget) {

    static final Duration DEFAULT_BATCH_BUDGET = Duration.ofSeconds(15);

    public WorkerSettings(int poolMax, int poolTrimTo, int backfillPins, Duration waitGrace) {
        this(poolMax, poolTrimTo, backfillPins, waitGrace, DEFAULT_BATCH_BUDGET);
    }

    public WorkerSettings {
        if (poolTrimTo <= 0 || poolTrimTo > poolMax) {
            throw new IllegalArgumentException("need 0 < feed.pool-trim-to <= feed.pool-max: " + poolTrimTo + ", " + poolMax);
        }
        if (backfillPins < 0) throw new IllegalArgumentException("feed.worker.backfill-pins must be >= 0: " + backfillPins);
        if (batchBudget.isNegative() || batchBudget.isZero()) {
            throw new IllegalArgumentException("feed.worker.batch-budget-ms must be > 0: " + batchBudget.toMillis());
        }
    }

    public static WorkerSettings defaults() {
        return new WorkerSettings(500, 450, 50, Duration.ofSeconds(120));
    }

    public static WorkerSettings from(PinfeedConfig config) {
        int max = config.getInt("feed.pool-max", 500);
        return new WorkerSettings(max, config.getInt("feed.pool-trim-to", Math.max(1, max * 9 / 10)),
                config.getInt("feed.worker.backfill-pins", 50), Duration.ofSeconds(config.getInt("feed.worker.wait-s", 120)),
                Duration.ofMillis(config.getInt("feed.worker.batch-budget-ms", (int) DEFAULT_BATCH_BUDGET.toMillis())));
    }
}
