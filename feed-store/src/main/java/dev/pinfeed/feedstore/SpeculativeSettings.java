package dev.pinfeed.feedstore;

import dev.pinfeed.config.PinfeedConfig;
import java.time.Duration;

/**
 * How {@link SpeculativeReads} picks its cutoff and treats the standby (keys {@code feed.speculative.*}).
 *
 * @param floor          the cutoff never goes below this ({@code cutoff-floor-ms}): a fast primary's tiny p99.9 must not hedge on noise
 * @param ceiling        nor above this ({@code cutoff-ceiling-ms}); also the cutoff until {@code warmupSamples} latencies are known
 * @param quantile       the primary latency the cutoff sits above ({@code quantile}, seed 002: p99.9)
 * @param margin         cutoff = quantile latency × margin ({@code margin})
 * @param window         how many recent primary latencies the quantile is taken over ({@code window})
 * @param warmupSamples  latencies needed before the learned cutoff replaces the ceiling ({@code warmup-samples})
 * @param warmPercent    share of calls (0..100) also sent to the standby, answer dropped, to keep it warm ({@code warm-percent})
 * @param downAfter      consecutive primary failures or cutoff misses after which the primary counts as down ({@code down-after})
 * @param probeInterval  while it is down, one call per interval also goes to the primary ({@code probe-interval-ms})
 * @param deadline       a call with no answer from either cluster by then fails ({@code deadline-ms})
 */
public record SpeculativeSettings(Duration floor, Duration ceiling, double quantile, double margin, int window, int warmupSamples,
                                  double warmPercent, int downAfter, Duration probeInterval, Duration deadline) {

    public SpeculativeSettings {
        if (floor.isNegative() || ceiling.compareTo(floor) < 0) throw new IllegalArgumentException("need 0 <= floor <= ceiling: " + floor + ", " + ceiling);
        if (!(quantile > 0 && quantile <= 1)) throw new IllegalArgumentException("quantile must be in (0, 1]: " + quantile);
        if (!(margin >= 1)) throw new IllegalArgumentException("margin must be >= 1: " + margin);
        if (window < 1 || warmupSamples < 1 || warmupSamples > window) {
            throw new IllegalArgumentException("need 1 <= warmup-samples <= window: " + warmupSamples + ", " + window);
        }
        if (!(warmPercent >= 0 && warmPercent <= 100)) throw new IllegalArgumentException("warm-percent must be in [0, 100]: " + warmPercent);
        if (downAfter < 1) throw new IllegalArgumentException("down-after must be >= 1: " + downAfter);
        if (probeInterval.isNegative() || deadline.compareTo(ceiling) <= 0) {
            throw new IllegalArgumentException("need probe-interval >= 0 and deadline > ceiling: " + probeInterval + ", " + deadline);
        }
    }

    public static final String PREFIX = "feed.speculative.";

    /** 5 ms .. 200 ms around 1.25 × p99.9 of the last 10 000 primary calls, learned after 1 000; 1 % warm-up; down after 5 misses, probed every second. */
    public static SpeculativeSettings defaults() {
        return new SpeculativeSettings(Duration.ofMillis(5), Duration.ofMillis(200), 0.999, 1.25, 10_000, 1_000, 1.0, 5,
                Duration.ofSeconds(1), Duration.ofSeconds(3));
    }

    /** The defaults, each overridable by its {@code feed.speculative.*} key. */
    public static SpeculativeSettings from(PinfeedConfig config) {
        SpeculativeSettings d = defaults();
        return new SpeculativeSettings(
                millis(config, "cutoff-floor-ms", d.floor), millis(config, "cutoff-ceiling-ms", d.ceiling),
                number(config, "quantile", d.quantile), number(config, "margin", d.margin),
                config.getInt(PREFIX + "window", d.window), config.getInt(PREFIX + "warmup-samples", d.warmupSamples),
                number(config, "warm-percent", d.warmPercent), config.getInt(PREFIX + "down-after", d.downAfter),
                millis(config, "probe-interval-ms", d.probeInterval), millis(config, "deadline-ms", d.deadline));
    }

    private static Duration millis(PinfeedConfig config, String key, Duration fallback) {
        return Duration.ofMillis(config.getInt(PREFIX + key, (int) fallback.toMillis()));
    }

    private static double number(PinfeedConfig config, String key, double fallback) {
        String v = config.get(PREFIX + key, null);
        if (v == null) return fallback;
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("configuration key '" + PREFIX + key + "' is not a number: " + v);
        }
    }
}
