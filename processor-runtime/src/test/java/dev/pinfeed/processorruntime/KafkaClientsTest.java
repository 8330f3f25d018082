package dev.pinfeed.processorruntime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.PinfeedConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The configured pass-through reaches every kind of client; pinfeed's guarantees cannot be passed through. */
class KafkaClientsTest {

    private static PinfeedConfig config(String... keyValues) {
        Properties p = new Properties();
        p.setProperty("kafka.bootstrap", "broker1:9093");
        for (int i = 0; i < keyValues.length; i += 2) p.setProperty(keyValues[i], keyValues[i + 1]);
        return PinfeedConfig.of(p);
    }

    private static final List<Function<PinfeedConfig, Properties>> EVERY_KIND = List.of(
            c -> KafkaClients.producer(c, "p"),
            c -> KafkaClients.consumer(c, "g"),
            KafkaClients::reader,
            KafkaClients::admin,
            c -> KafkaClients.streams(c, new Properties()));

    @Test
    void aClientPropertyReachesEveryKindOfClientWithItsSecretFromAFile(@TempDir Path dir) throws Exception {
        Path jaas = Files.writeString(dir.resolve("jaas"), "ScramLoginModule required username=\"pf\" password=\"pw\";\n");
        PinfeedConfig config = config("kafka.client.security.protocol", "SASL_SSL", "kafka.client.sasl.mechanism", "SCRAM-SHA-512",
                "kafka.client.sasl.jaas.config.file", jaas.toString(), "kafka.client.ssl.truststore.location", "/etc/kafka/ca.p12");

        for (Function<PinfeedConfig, Properties> kind : EVERY_KIND) {
            Properties p = kind.apply(config);
            assertThat(p).containsEntry("bootstrap.servers", "broker1:9093")
                    .containsEntry("security.protocol", "SASL_SSL")
                    .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                    .containsEntry("sasl.jaas.config", "ScramLoginModule required username=\"pf\" password=\"pw\";")
                    .containsEntry("ssl.truststore.location", "/etc/kafka/ca.p12");
        }
    }

    @Test
    void aKindsOwnPropertyReachesThatKindOnlyAndWinsOverTheClientsAndPinfeedsDefaults() {
        PinfeedConfig config = config("kafka.client.client.dns.lookup", "use_all_dns_ips",
                "kafka.client.request.timeout.ms", "20000",
                "kafka.producer.request.timeout.ms", "40000",
                "kafka.producer.linger.ms", "10",
                "kafka.consumer.fetch.min.bytes", "1024",
                "kafka.admin.default.api.timeout.ms", "60000",
                "kafka.streams.num.standby.replicas", "1");

        Properties producer = KafkaClients.producer(config, "p");
        assertThat(producer).containsEntry("request.timeout.ms", "40000").containsEntry("linger.ms", "10")
                .containsEntry("client.dns.lookup", "use_all_dns_ips").doesNotContainKey("fetch.min.bytes");
        assertThat(KafkaClients.consumer(config, "g")).containsEntry("fetch.min.bytes", "1024")
                .containsEntry("request.timeout.ms", "20000").doesNotContainKey("linger.ms");
        assertThat(KafkaClients.reader(config)).containsEntry("fetch.min.bytes", "1024");
        assertThat(KafkaClients.admin(config)).containsEntry("default.api.timeout.ms", "60000")
                .containsEntry("request.timeout.ms", "20000").doesNotContainKey("fetch.min.bytes");
        Properties ownSettings = new Properties();
        ownSettings.put("application.id", "pinfeed-fanout");
        assertThat(KafkaClients.streams(config, ownSettings)).containsEntry("num.standby.replicas", "1")
                .containsEntry("application.id", "pinfeed-fanout").containsEntry("client.dns.lookup", "use_all_dns_ips")
                .doesNotContainKey("linger.ms");
    }

    @Test
    void withoutPassThroughTheSettingsArePinfeedsOwn() {
        Properties producer = KafkaClients.producer(config(), "p");
        assertThat(producer).containsEntry("acks", "all").containsEntry("enable.idempotence", "true").doesNotContainKey("security.protocol");
        assertThat(KafkaClients.consumer(config(), "g")).containsEntry("enable.auto.commit", "false")
                .containsEntry("isolation.level", "read_committed");
    }

    @ParameterizedTest
    @ValueSource(strings = {"kafka.client.acks", "kafka.producer.enable.idempotence", "kafka.producer.transactional.id",
            "kafka.consumer.enable.auto.commit", "kafka.client.isolation.level", "kafka.consumer.group.id",
            "kafka.streams.processing.guarantee", "kafka.streams.application.id", "kafka.streams.producer.acks",
            "kafka.streams.main.consumer.isolation.level", "kafka.client.bootstrap.servers"})
    void aProtectedPropertyIsRefusedNamingTheKeyWhicheverClientIsBuilt(String key) {
        PinfeedConfig config = config(key, "x");

        for (Function<PinfeedConfig, Properties> kind : EVERY_KIND) {
            assertThatThrownBy(() -> kind.apply(config)).isInstanceOf(IllegalStateException.class).hasMessageContaining("'" + key + "'");
        }
    }

    @Test
    void aProtectedPropertyGivenAsAFileIsRefusedToo(@TempDir Path dir) throws Exception {
        Path value = Files.writeString(dir.resolve("acks"), "1\n");
        PinfeedConfig config = config("kafka.producer.acks.file", value.toString());

        assertThatThrownBy(() -> KafkaClients.producer(config, "p")).hasMessageContaining("'kafka.producer.acks'");
    }
}
