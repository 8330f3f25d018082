package dev.pinfeed.fanoutstreams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.eventsschema.DecodeLimits;
import dev.pinfeed.eventsschema.EventTopics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class FanoutSettingsTest {

    private static PinfeedConfig config(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) p.setProperty(keyValues[i], keyValues[i + 1]);
        return PinfeedConfig.of(p);
    }

    @Test
    void defaultsAreTheProductionTopicsAndLimits() {
        FanoutSettings s = FanoutSettings.from(config());
        assertThat(s.applicationId()).isEqualTo("pinfeed-fanout");
        assertThat(s.inputTopic()).isEqualTo(EventTopics.PINS);
        assertThat(s.outputTopic()).isEqualTo(EventTopics.FANOUT);
        assertThat(s.deadLetterTopic()).isEqualTo(DeadLetters.TOPIC);
        assertThat(s.chunkSize()).isEqualTo(1000);
        assertThat(s.activeDays()).isEqualTo(30);
        assertThat(s.turnMaxMillis()).isEqualTo(200);
    }

    @Test
    void everyKnobIsReadFromTheConfiguration() {
        FanoutSettings s = FanoutSettings.from(config("fanout.application-id", "app", "fanout.input-topic", "in",
                "fanout.output-topic", "out", "fanout.dead-letter-topic", "dlq", "fanout.chunk-size", "250", "fanout.active-days", "0",
                "fanout.steps-per-turn", "7", "fanout.turn-max-ms", "90", "fanout.punctuate-ms", "40", "fanout.reads-per-step", "2",
                "fanout.threads", "3", "fanout.fetch-threads", "5", "fanout.read-ahead-pages", "2", "fanout.state-dir", "/var/lib/fanout",
                DecodeLimits.MAX_COLLECTION_ITEMS_KEY, "20000", "fanout.celebrity-followers", "3",
                "fanout.popular-interest-followers", "4"));
        assertThat(s).isEqualTo(new FanoutSettings("app", "in", "out", "dlq", 250, 0, 7, 90, Duration.ofMillis(40), 2, 3, 3, 5, 2,
                Path.of("/var/lib/fanout"), new DecodeLimits(1 << 20, 256 << 10, 20_000), 3, 4));
    }

    @Test
    void theDeadLetterTopicFollowsTheProcessorsUnlessTheFanOutNamesItsOwn() {
        assertThat(FanoutSettings.from(config(DeadLetters.TOPIC_KEY, "ops-dlq")).deadLetterTopic()).isEqualTo("ops-dlq");
        assertThat(FanoutSettings.from(config(DeadLetters.TOPIC_KEY, "ops-dlq", "fanout.dead-letter-topic", "own")).deadLetterTopic())
                .isEqualTo("own");
    }

    @Test
    void aChunkMustFitOneGraphPageAndTheOtherLimitsMustBePositive() {
        assertThatThrownBy(() -> FanoutSettings.from(config("fanout.chunk-size", "0"))).hasMessageContaining("fanout.chunk-size");
        assertThatThrownBy(() -> FanoutSettings.from(config("fanout.chunk-size", "10001"))).hasMessageContaining("fanout.chunk-size");
        assertThatThrownBy(() -> FanoutSettings.from(config("fanout.active-days", "-1"))).hasMessageContaining("fanout.active-days");
        assertThatThrownBy(() -> FanoutSettings.from(config("fanout.steps-per-turn", "0"))).hasMessageContaining("fanout.steps-per-turn");
        assertThatThrownBy(() -> FanoutSettings.from(config("fanout.read-ahead-pages", "0"))).hasMessageContaining("fanout.read-ahead-pages");
        assertThatThrownBy(() -> FanoutSettings.from(config("fanout.punctuate-ms", "0"))).hasMessage("fanout.punctuate-ms must be at least 1: 0");
    }
}
