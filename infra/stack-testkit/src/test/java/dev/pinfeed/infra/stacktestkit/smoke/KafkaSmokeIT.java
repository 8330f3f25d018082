package dev.pinfeed.infra.stacktestkit.smoke;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(StackExtension.class)
class KafkaSmokeIT {

    @Test
    void theStacksClientListenerRefusesAClientThatDoesNotLogIn(TestStack stack) {
        assertThat(stack.config().find("kafka.client.sasl.jaas.config")).as("the local stack's Kafka login").isPresent();
        Properties anonymous = new Properties();
        anonymous.put("bootstrap.servers", stack.config().kafkaBootstrap());
        anonymous.put("request.timeout.ms", "3000");
        anonymous.put("default.api.timeout.ms", "5000");
        try (Admin admin = Admin.create(anonymous)) {
            // A SASL listener drops a client that skips the handshake: it never gets an answer.
            assertThatThrownBy(() -> admin.listTopics().names().get(30, java.util.concurrent.TimeUnit.SECONDS))
                    .hasRootCauseInstanceOf(org.apache.kafka.common.errors.TimeoutException.class);
        }
        Properties wrong = stack.kafkaClientProperties();
        wrong.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"pinfeed\" password=\"guess\";");
        try (Admin admin = Admin.create(wrong)) {
            assertThatThrownBy(() -> admin.listTopics().names().get(30, java.util.concurrent.TimeUnit.SECONDS))
                    .hasRootCauseInstanceOf(org.apache.kafka.common.errors.SaslAuthenticationException.class);
        }
    }

    @Test
    void readCommittedConsumerSeesCommittedTransactionsOnly(TestStack stack) throws Exception {
        String topic = stack.uniqueTopic("smoke-tx");
        try (Admin admin = Admin.create(stack.kafkaClientProperties())) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
        }

        Properties p = stack.kafkaClientProperties();
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, stack.uniqueName("smoke-tx"));
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "k1", "committed-1"));
            producer.send(new ProducerRecord<>(topic, "k2", "committed-2"));
            producer.commitTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "k3", "aborted"));
            producer.flush();
            producer.abortTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, "k4", "committed-3"));
            producer.commitTransaction();
        }

        Properties c = stack.kafkaClientProperties();
        c.put(ConsumerConfig.GROUP_ID_CONFIG, stack.uniqueName("smoke-group"));
        c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        List<String> seen = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (seen.size() < 3 && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) seen.add(r.value());
            }
            // Anything else already fetched would show up now.
            consumer.poll(Duration.ofMillis(500)).forEach(r -> seen.add(r.value()));
        }
        assertThat(seen).containsExactlyInAnyOrder("committed-1", "committed-2", "committed-3");
    }
}
