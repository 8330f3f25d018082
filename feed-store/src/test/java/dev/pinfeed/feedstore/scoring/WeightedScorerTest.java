package dev.pinfeed.feedstore.scoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.feedstore.Source;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class WeightedScorerTest {

    private static final long NOW = 1_780_000_000_000L;
    private static final Duration HALF_LIFE = WeightedScorer.Settings.defaults().halfLife();

    private final Clock clock = Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC);
    private final WeightedScorer scorer = new WeightedScorer(WeightedScorer.Settings.defaults(), clock);

    private static Candidate candidate(Source source, long createdAt, long affinity, long likes) {
        return new Candidate(7, source, new PinFacts(11, 22, 33, createdAt), affinity, likes);
    }

    private double score(long ageMillis, long affinity, long likes) {
        return scorer.score(candidate(Source.FOLLOWED_USER, NOW - ageMillis, affinity, likes));
    }

    @Test
    void aNewPinFromAStrangerWithoutLikesScoresTheSourceWeight() {
        assertThat(score(0, 0, 0)).isEqualTo(1.0);
        assertThat(scorer.score(candidate(Source.FOLLOWED_BOARD, NOW, 0, 0))).isEqualTo(1.25);
    }

    @Test
    void theScoreHalvesWithEveryHalfLifeOfAge() {
        double fresh = score(0, 3, 5);
        assertThat(score(HALF_LIFE.toMillis(), 3, 5)).isCloseTo(fresh / 2, within(1e-12));
        assertThat(score(2 * HALF_LIFE.toMillis(), 3, 5)).isCloseTo(fresh / 4, within(1e-12));
        assertThat(score(Duration.ofDays(10_000).toMillis(), 3, 5)).isGreaterThanOrEqualTo(0).isLessThan(1e-100);
    }

    @Test
    void aPinFromTheFutureCountsAsNew() {
        assertThat(score(-Duration.ofHours(5).toMillis(), 0, 0)).isEqualTo(score(0, 0, 0));
    }

    @Test
    void affinityRaisesTheScoreEachLikeLessThanTheOneBefore() {
        assertThat(score(0, 1, 0)).isCloseTo(1 + Math.log(2), within(1e-12));
        double previousGain = Double.MAX_VALUE;
        for (int a = 1; a <= 20; a++) {
            double gain = score(0, a, 0) - score(0, a - 1, 0);
            assertThat(gain).as("gain of like %d", a).isPositive().isLessThan(previousGain);
            previousGain = gain;
        }
    }

    @Test
    void likesOfThePinRaiseTheScoreLikeAffinityDoes() {
        assertThat(score(0, 0, 1)).isCloseTo(1 + Math.log(2), within(1e-12));
        assertThat(score(0, 0, 1000)).isGreaterThan(score(0, 0, 100)).isGreaterThan(score(0, 0, 10));
        assertThat(score(0, 2, 3)).isCloseTo((1 + Math.log1p(2)) * (1 + Math.log1p(3)), within(1e-12));
    }

    @Test
    void scoresAreNeverNegative() {
        assertThat(score(Long.MAX_VALUE / 2, -5, -5)).isGreaterThanOrEqualTo(0);
        assertThat(score(0, -5, -5)).isEqualTo(1.0);
    }

    @Test
    void weightsAndHalfLifeComeFromTheConfiguration() {
        Properties p = new Properties();
        p.setProperty("feed.score.weight.followed_user", "2");
        p.setProperty("feed.score.weight.followed_board", "0.5");
        p.setProperty("feed.score.weight.repins", "0.75");
        p.setProperty("feed.score.half-life-hours", "1");
        WeightedScorer.Settings s = WeightedScorer.Settings.from(PinfeedConfig.of(p));
        assertThat(s.sourceWeights()).isEqualTo(Map.of(Source.FOLLOWED_USER, 2.0, Source.FOLLOWED_BOARD, 0.5, Source.REPINS, 0.75,
                Source.RELATED, 1.0, Source.INTERESTS, 1.0));
        assertThat(s.halfLife()).isEqualTo(Duration.ofHours(1));
        WeightedScorer custom = new WeightedScorer(s, clock);
        assertThat(custom.score(candidate(Source.FOLLOWED_USER, NOW - Duration.ofHours(1).toMillis(), 0, 0))).isCloseTo(1.0, within(1e-12));
        assertThat(WeightedScorer.Settings.from(PinfeedConfig.of(new Properties()))).isEqualTo(WeightedScorer.Settings.defaults());
    }

    @Test
    void badSettingsAreRefused() {
        assertThatThrownBy(() -> new WeightedScorer.Settings(Map.of(Source.FOLLOWED_USER, -1.0, Source.FOLLOWED_BOARD, 1.0), HALF_LIFE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("followed_user");
        assertThatThrownBy(() -> new WeightedScorer.Settings(Map.of(Source.FOLLOWED_USER, 1.0), HALF_LIFE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("followed_board");
        assertThatThrownBy(() -> new WeightedScorer.Settings(WeightedScorer.Settings.defaults().sourceWeights(), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
