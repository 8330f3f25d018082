package dev.pinfeed.feedworker;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedstore.ReadPressure;
import java.time.Clock;

/**
 * The worker yielding to readers: while the feed service says its readers wait ({@link ReadPressure}), the worker pauses
 * after each batch for {@code ratio} times the batch's own time, so it runs at {@code 1 / (1 + ratio)} of its pace and the
 * region servers it loads answer the pages first. The ratio doubles at each look that finds the pressure raised (from ½,
 * up to {@link Settings#maxRatio}) and halves at each that does not, down to 0: it settles where readers are just served,
 * and the worker never stops (at most {@code maxRatio} paused per unit worked), so the fan-out still drains.
 *
 * <p>It looks at most once per {@link Settings#lookEveryMillis}, on the clock it is given; a look that fails counts as
 * not raised (a store outage must not stop the worker). Thread-safe: the worker's loops share one.
 */
public final class ReadYield {

    /**
     * @param maxRatio        most time paused per unit of time worked ({@code feed.worker.yield.max-ratio}, 4: at least a fifth
     *                        of the worker's pace); 0 turns yielding off
     * @param lookEveryMillis how often the pressure is looked at ({@code feed.worker.yield.look-every-ms}, 1 000)
     * @param maxPauseMillis  the longest pause after one batch ({@code feed.worker.yield.max-pause-ms}, 5 000)
     */
    public record Settings(double maxRatio, long lookEveryMillis, long maxPauseMillis) {

        public Settings {
            if (!(maxRatio >= 0)) throw new IllegalArgumentException("feed.worker.yield.max-ratio must be 0 (off) or more: " + maxRatio);
            if (lookEveryMillis < 1) throw new IllegalArgumentException("feed.worker.yield.look-every-ms must be at least 1: " + lookEveryMillis);
            if (maxPauseMillis < 0) throw new IllegalArgumentException("feed.worker.yield.max-pause-ms must be 0 or more: " + maxPauseMillis);
        }

        public static Settings from(PinfeedConfig config) {
            return new Settings(Double.parseDouble(config.get("feed.worker.yield.max-ratio", "4")),
                    config.getInt("feed.worker.yield.look-every-ms", 1_000), config.getInt("feed.worker.yield.max-pause-ms", 5_000));
        }

        public boolean off() {
            return maxRatio == 0;
        }
    }

    /** The ratio a first raised look starts from. */
    static final double FIRST_RATIO = 0.5;
    /** Below this the ratio is 0: full pace. */
    static final double LEAST_RATIO = 0.1;

    private final ReadPressure pressure;
    private final Settings settings;
    private final Clock clock;
    private final WorkerMetrics metrics;
    private double ratio;
    private long nextLook = Long.MIN_VALUE;

    public ReadYield(ReadPressure pressure, Settings settings, Clock clock, WorkerMetrics metrics) {
        this.pressure = pressure;
        this.settings = settings;
        this.clock = clock;
        this.metrics = metrics;
    }

    /** How long to pause after a batch that took {@code workedMillis}, in ms (0: go on). */
    public synchronized long pauseAfter(long workedMillis) {
        if (settings.off()) return 0;
        long now = clock.millis();
        if (now >= nextLook) {
            nextLook = now + settings.lookEveryMillis();
            ratio = raised() ? Math.min(settings.maxRatio(), Math.max(FIRST_RATIO, ratio * 2)) : ratio / 2 < LEAST_RATIO ? 0 : ratio / 2;
            metrics.yieldRatio(ratio);
        }
        long pause = Math.min(settings.maxPauseMillis(), Math.round(ratio * Math.max(0, workedMillis)));
        if (pause > 0) metrics.yielded(pause);
        return pause;
    }

    /** The ratio in force (for tests and diagnostics). */
    public synchronized double ratio() {
        return ratio;
    }

    private boolean raised() {
        try {
            return pressure.raised();
        } catch (RuntimeException e) {
            metrics.readPressureLookFailed();
            return false;
        }
    }
}
