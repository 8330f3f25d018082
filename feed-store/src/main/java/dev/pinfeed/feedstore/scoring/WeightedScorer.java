package dev.pinfeed.feedstore.scoring;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedstore.Source;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * The default {@link Scorer}:
 * <pre>
 * score = sourceWeight(source) × 0.5^(age / halfLife) × (1 + ln(1 + affinity)) × (1 + ln(1 + likes))
 * </pre>
 * <ul>
 *   <li>{@code age}: now (the injected clock) minus the pin's creation time, never negative;</li>
 *   <li>{@code affinity}: how many of the author's pins the receiver likes;</li>
 *   <li>{@code likes}: the pin's like count.</li>
 * </ul>
 * Affinity and likes are damped by a logarithm: each further like says less than the first, and a
 * linear affinity would let one much-liked author fill a receiver's pool (with 20 likes a linear
 * factor of 21 outweighs four half-lives of age). Every factor is {@code >= 0}, so the score is too.
 * Keys: {@code feed.score.half-life-hours} (72), {@code feed.score.weight.<source>}
 * ({@code followed_user} 1.0, {@code followed_board} 1.25, {@code repins}, {@code related} and {@code interests} 1.0).
 */
public final class WeightedScorer implements Scorer {

    /** The formula's parameters. */
    public record Settings(Map<Source, Double> sourceWeights, Duration halfLife) {

        public Settings {
            sourceWeights = Map.copyOf(sourceWeights);
            for (Source s : Source.values()) {
                Double w = sourceWeights.get(s);
                if (w == null || !(w >= 0) || w.isInfinite()) throw new IllegalArgumentException("weight of " + s.wireName() + " must be >= 0: " + w);
            }
            if (halfLife.isNegative() || halfLife.isZero()) throw new IllegalArgumentException("half-life must be positive: " + halfLife);
        }

        /** An explicit follow of a board says more about the receiver's interest than a follow of all a user's boards. */
        public static Settings defaults() {
            Map<Source, Double> w = new EnumMap<>(Source.class);
            w.put(Source.FOLLOWED_USER, 1.0);
            w.put(Source.FOLLOWED_BOARD, 1.25);
            // each of these is its own pool: the weight orders its pins among themselves, the generator's mix sets their share
            w.put(Source.REPINS, 1.0);
            w.put(Source.RELATED, 1.0);
            w.put(Source.INTERESTS, 1.0);
            return new Settings(w, Duration.ofHours(72));
        }

        public static Settings from(PinfeedConfig config) {
            Settings d = defaults();
            Map<Source, Double> w = new EnumMap<>(Source.class);
            for (Source s : Source.values()) {
                w.put(s, Double.parseDouble(config.get("feed.score.weight." + s.wireName(), Double.toString(d.sourceWeights().get(s)))));
            }
            return new Settings(w, Duration.ofHours(config.getInt("feed.score.half-life-hours", (int) d.halfLife().toHours())));
        }
    }

    private final Settings settings;
    private final Clock clock;
    private final double halfLifeMillis;

    public WeightedScorer(Settings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        this.halfLifeMillis = settings.halfLife().toMillis();
    }

    @Override
    public double score(Candidate c) {
        double age = Math.max(0, clock.millis() - c.pin().createdAtMillis());
        double recency = Math.pow(0.5, age / halfLifeMillis);
        return settings.sourceWeights().get(c.source()) * recency * damped(c.affinity()) * damped(c.pinLikes());
    }

    private static double damped(long count) {
        return 1 + Math.log1p(Math.max(0, count));
    }
}
