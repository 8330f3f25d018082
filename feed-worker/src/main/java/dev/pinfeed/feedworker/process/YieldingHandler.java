package dev.pinfeed.feedworker.process;

import dev.pinfeed.feedworker.ReadYield;
import dev.pinfeed.processorruntime.BatchHandler;
import dev.pinfeed.processorruntime.InputRecord;
import dev.pinfeed.processorruntime.Outcomes;
import dev.pinfeed.processorruntime.Sleeper;
import java.time.Clock;
import java.util.List;

/**
 * A handler that pauses after each batch for as long as {@link ReadYield} says (readers wait). The pause comes before
 * the loop commits the batch: a crash during it replays the batch, which the worker's idempotent writes allow.
 */
final class YieldingHandler implements BatchHandler {

    private final BatchHandler handler;
    private final ReadYield yield;
    private final Clock clock;
    private final Sleeper sleeper;

    YieldingHandler(BatchHandler handler, ReadYield yield, Clock clock, Sleeper sleeper) {
        this.handler = handler;
        this.yield = yield;
        this.clock = clock;
        this.sleeper = sleeper;
    }

    @Override
    public void apply(List<InputRecord> records, Outcomes outcomes) {
        long start = clock.millis();
        handler.apply(records, outcomes);
        long pause = yield.pauseAfter(clock.millis() - start);
        if (pause > 0) sleeper.sleepQuietly(pause);
    }
}
