package dev.pinfeed.ingestapi.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.PinfeedConfig;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Ingest's producer: the durable settings of every pinfeed producer, with its own compression unless configured. */
class KafkaEventPublisherSettingsTest {

    private final PinfeedConfig local = PinfeedConfig.bundledLocal();

    @Test
    void compressesWithSnappyAndKeepsTheDurableSettings() {
        Properties p = KafkaEventPublisher.producerSettings(local, new Properties());

        assertThat(p.getProperty("compression.type")).isEqualTo("snappy");
        assertThat(p.getProperty("acks")).isEqualTo("all");
        assertThat(p.getProperty("enable.idempotence")).isEqualTo("true");
    }

    @Test
    void aConfiguredCompressionWins() {
        assertThat(KafkaEventPublisher.producerSettings(local.withOverrides(Map.of("kafka.producer.compression.type", "zstd")), new Properties())
                .getProperty("compression.type")).isEqualTo("zstd");
        assertThat(KafkaEventPublisher.producerSettings(local.withOverrides(Map.of("kafka.client.compression.type", "none")), new Properties())
                .getProperty("compression.type")).isEqualTo("none");
    }

    @Test
    void extraSettingsComeLast() {
        Properties extra = new Properties();
        extra.setProperty("compression.type", "lz4");
        assertThat(KafkaEventPublisher.producerSettings(local, extra).getProperty("compression.type")).isEqualTo("lz4");
    }
}
