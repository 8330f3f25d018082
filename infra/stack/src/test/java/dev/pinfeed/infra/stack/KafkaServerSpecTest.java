package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.HostPort;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The broker's server.properties: the stack's listens in plain text, a SCRAM broker's client listener requires SCRAM. */
class KafkaServerSpecTest {

    @TempDir Path home;

    private StackLayout layout() {
        return new StackLayout(home, home.resolve(".pinfeed"));
    }

    @Test
    void theStacksBrokerServesPlainTextWithoutSasl() {
        String props = new KafkaServerSpec(layout(), new HostPort("127.0.0.1", 19092), 19093).serverProperties();

        assertThat(props).contains("listeners=PLAINTEXT://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093\n",
                "inter.broker.listener.name=PLAINTEXT\n", "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT\n");
        assertThat(props).doesNotContainIgnoringCase("sasl").endsWith("log.retention.hours=168\n");
    }

    @Test
    void aScramBrokersClientAndInterBrokerListenerIsSaslWithItsAccount() {
        KafkaServerSpec spec = new KafkaServerSpec(layout(), "kafka-scram", new HostPort("127.0.0.1", 29092), 29093,
                new KafkaServerSpec.ScramAccount("pinfeed", "s3cret"));
        String props = spec.serverProperties();

        assertThat(spec.logFile()).hasFileName("kafka-scram.log");
        assertThat(props).contains("listeners=SASL_PLAINTEXT://127.0.0.1:29092,CONTROLLER://127.0.0.1:29093\n",
                "inter.broker.listener.name=SASL_PLAINTEXT\n",
                "listener.security.protocol.map=SASL_PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT\n",
                "sasl.enabled.mechanisms=SCRAM-SHA-256\n", "sasl.mechanism.inter.broker.protocol=SCRAM-SHA-256\n",
                "listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule"
                        + " required username=\"pinfeed\" password=\"s3cret\";\n",
                "log.dirs=" + home.resolve(".pinfeed/data/kafka-scram/logs"));
    }

    @Test
    void anAccountThatStorageToolOrJaasWouldMisreadIsRefused() {
        assertThatThrownBy(() -> new KafkaServerSpec.ScramAccount("pinfeed", "a,b]"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new KafkaServerSpec.ScramAccount("pin\"feed", "secret"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
