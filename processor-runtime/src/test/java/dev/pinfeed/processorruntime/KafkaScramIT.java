package dev.pinfeed.processorruntime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.config.HostPort;
import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.infra.stack.SpareServer;
import dev.pinfeed.infra.stacktestkit.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link KafkaClients} secures every client by configuration alone ({@code kafka.client.*}): on a broker of the
 * test's own ({@link SpareServer#kafkaScram}, free ports) whose listener requires SCRAM-SHA-256, clients without
 * credentials or with a wrong password are refused; with the account's JAAS line from a secret file, pinfeed's
 * admin client creates a topic, its durable producer writes to it and its group consumer reads it back.
 */
class KafkaScramIT {

    private static final String USER = "pinfeed";
    private static final String PASSWORD = "scram-it-7c41";
    /** What a client without SASL gets: the listener drops each of its connections, so its calls run into their deadline. */
    private static final int ANONYMOUS_DEADLINE_MS = 5_000;
    /** Bounds every wait on a result (a refusal included); generous for a loaded 2-core box. */
    private static final long WAIT_SECONDS = 60;

    @TempDir static Path home;
    private static SpareServer broker;

    @BeforeAll
    static void startABrokerThatRequiresScram() throws Exception {
        HostPort address = new HostPort("127.0.0.1", ChildJvm.freePort());
        broker = SpareServer.kafkaScram(home, "kafka-scram-it", address, ChildJvm.freePort(), USER, PASSWORD);
        broker.start();
    }

    @AfterAll
    static void stopTheBroker() {
        if (broker != null) broker.close(); // its data goes with the @TempDir
    }

    private static PinfeedConfig config(Map<String, String> keys) {
        Properties p = new Properties();
        p.setProperty("kafka.bootstrap", broker.address().toString());
        p.putAll(keys);
        return PinfeedConfig.of(p);
    }

    /** SCRAM as a deployment configures it: the JAAS line (with the password) comes from a secret file. */
    private static PinfeedConfig scram(String password) throws Exception {
        String jaas = "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + USER + "\" password=\"" + password + "\";";
        Path secret = Files.writeString(Files.createTempFile(home, "kafka-jaas", ".conf"), jaas + "\n");
        return config(Map.of(
                "kafka.client.security.protocol", "SASL_PLAINTEXT",
                "kafka.client.sasl.mechanism", "SCRAM-SHA-256",
                "kafka.client.sasl.jaas.config.file", secret.toString(),
                // A fresh producer's first send waits for metadata, here behind the SASL handshake: on a loaded box
                // that can outlast the default 1 s, which would turn a refusal into a timeout and a success into a flake.
                "kafka.producer.max.block.ms", "30000"));
    }

    private static KafkaProducer<String, String> producer(PinfeedConfig config) {
        return new KafkaProducer<>(KafkaClients.producer(config, "kafka-scram-it"), new StringSerializer(), new StringSerializer());
    }

    private static KafkaConsumer<String, String> consumer(PinfeedConfig config, String group) {
        return new KafkaConsumer<>(KafkaClients.consumer(config, group), new StringDeserializer(), new StringDeserializer());
    }

    private static String createTopic(PinfeedConfig config) throws Exception {
        String topic = "scram-it-" + UUID.randomUUID();
        try (Admin admin = Admin.create(KafkaClients.admin(config))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(WAIT_SECONDS, TimeUnit.SECONDS);
        }
        return topic;
    }

    @Test
    void clientsWithoutCredentialsAreRefused() throws Exception {
        String topic = createTopic(scram(PASSWORD));
        PinfeedConfig anonymous = config(Map.of());

        try (Admin admin = Admin.create(KafkaClients.admin(anonymous))) {
            assertThatThrownBy(() -> admin.listTopics(new ListTopicsOptions().timeoutMs(ANONYMOUS_DEADLINE_MS)).names()
                    .get(WAIT_SECONDS, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(TimeoutException.class);
        }
        try (KafkaProducer<String, String> producer = producer(anonymous)) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, "k", "anonymous")).get(WAIT_SECONDS, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(TimeoutException.class)
                    .hasMessageContaining("not present in metadata");
        }
        try (KafkaConsumer<String, String> consumer = consumer(anonymous, "scram-it-anonymous")) {
            assertThatThrownBy(() -> consumer.partitionsFor(topic, Duration.ofMillis(ANONYMOUS_DEADLINE_MS)))
                    .isInstanceOf(TimeoutException.class);
        }
    }

    @Test
    void aWrongPasswordIsRefusedWithAnAuthenticationError() throws Exception {
        PinfeedConfig wrong = scram("not-" + PASSWORD);

        try (Admin admin = Admin.create(KafkaClients.admin(wrong))) {
            assertThatThrownBy(() -> admin.listTopics().names().get(WAIT_SECONDS, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(SaslAuthenticationException.class)
                    .hasMessageContaining("invalid credentials");
        }
        try (KafkaProducer<String, String> producer = producer(wrong)) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>("scram-it-any", "k", "wrong password")).get(WAIT_SECONDS, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(SaslAuthenticationException.class);
        }
        try (KafkaConsumer<String, String> consumer = consumer(wrong, "scram-it-wrong-password")) {
            assertThatThrownBy(() -> consumer.partitionsFor("scram-it-any", Duration.ofSeconds(WAIT_SECONDS)))
                    .isInstanceOf(SaslAuthenticationException.class);
        }
    }

    @Test
    void withTheAccountFromASecretFileTheAdminProducerAndGroupConsumerWork() throws Exception {
        PinfeedConfig config = scram(PASSWORD);
        String topic = createTopic(config);

        try (KafkaProducer<String, String> producer = producer(config)) {
            producer.send(new ProducerRecord<>(topic, "k", "written over SCRAM")).get(WAIT_SECONDS, TimeUnit.SECONDS);
        }
        String group = "scram-it-" + UUID.randomUUID();
        List<ConsumerRecord<String, String>> read = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = consumer(config, group)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            while (read.isEmpty() && System.nanoTime() < deadline) consumer.poll(Duration.ofMillis(500)).forEach(read::add);
            consumer.commitSync();
        }
        assertThat(read).extracting(ConsumerRecord::value).containsExactly("written over SCRAM");
        try (Admin admin = Admin.create(KafkaClients.admin(config))) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                    .get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertThat(committed.get(new TopicPartition(topic, 0))).extracting(OffsetAndMetadata::offset).isEqualTo(1L);
        }
    }
}
