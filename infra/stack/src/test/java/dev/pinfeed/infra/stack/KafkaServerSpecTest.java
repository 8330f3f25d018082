package dev.pinfeed.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.HostPort;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker's server.properties: without an account it listens in plain text; the stack's requires SCRAM of its
 * clients and keeps a plain internal listener for itself; a spare SCRAM broker's one listener requires SCRAM.
 */
class KafkaServerSpecTest {

    @TempDir Path home;

    private StackLayout layout() {
        return new StackLayout(home, home.resolve(".pinfeed"));
    }

    @Test
    void aBrokerWithoutAnAccountServesPlainTextWithoutSasl() {
        String props = new KafkaServerSpec(layout(), new HostPort("127.0.0.1", 19092), 19093).serverProperties();

        assertThat(props).contains("listeners=PLAINTEXT://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093\n",
                "inter.broker.listener.name=PLAINTEXT\n", "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT\n");
        assertThat(props).doesNotContainIgnoringCase("sasl").contains("log.retention.hours=168\n")
                .as("the cleaner's key map, on the heap").endsWith("log.cleaner.dedupe.buffer.size=16777216\n");
    }

    @Test
    void theStacksBrokerRequiresScramOfItsClientsAndKeepsAPlainInternalListenerWithoutThePassword() {
        KafkaServerSpec spec = KafkaServerSpec.stack(layout(), new HostPort("127.0.0.1", 19092), 19093, 19094,
                new KafkaServerSpec.ScramAccount("pinfeed", "s3cret"));
        String props = spec.serverProperties();

        assertThat(props).contains(
                "listeners=SASL_PLAINTEXT://127.0.0.1:19092,INTERNAL://127.0.0.1:19094,CONTROLLER://127.0.0.1:19093\n",
                "inter.broker.listener.name=INTERNAL\n",
                "listener.security.protocol.map=SASL_PLAINTEXT:SASL_PLAINTEXT,INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT\n",
                "sasl.enabled.mechanisms=SCRAM-SHA-256\n",
                "listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;\n");
        assertThat(props).as("the clients' password lives only in the cluster metadata, as a salted hash").doesNotContain("s3cret");
        assertThat(spec.internalBootstrap()).isEqualTo("127.0.0.1:19094");
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
