package dev.pinfeed.operations.verify.pools;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.contentgenerator.GeneratorSettings;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.scoring.WeightedScorer;
import dev.pinfeed.feedworker.WorkerSettings;
import java.util.Map;

/**
 * What the pools check takes from the deployment's configuration, the same keys as the processes that
 * write and read the pools.
 *
 * @param poolMax    the worker's bound of a (user, source) pool ({@code feed.pool-max})
 * @param poolTrimTo what the worker cuts a pool past the bound back to ({@code feed.pool-trim-to}): a pool
 *                   holding at least this many may have lost its lowest scores to a cut
 * @param scoring    the worker's scorer ({@code feed.score.*})
 * @param dropBelow  per source, the score under which the content generator drops a pin unseen ({@code feed.drop-below.*})
 */
public record PoolCheckSettings(int poolMax, int poolTrimTo, WeightedScorer.Settings scoring, Map<Source, Double> dropBelow) {

    public PoolCheckSettings {
        dropBelow = Map.copyOf(dropBelow);
    }

    public static PoolCheckSettings from(PinfeedConfig config) {
        WorkerSettings worker = WorkerSettings.from(config);
        return new PoolCheckSettings(worker.poolMax(), worker.poolTrimTo(), WeightedScorer.Settings.from(config),
                GeneratorSettings.from(config).dropBelow());
    }

    public static PoolCheckSettings defaults() {
        WorkerSettings worker = WorkerSettings.defaults();
        return new PoolCheckSettings(worker.poolMax(), worker.poolTrimTo(), WeightedScorer.Settings.defaults(),
                GeneratorSettings.defaults().dropBelow());
    }
}
