package dev.pinfeed.infra.schemaregistry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The {@link SchemaLog} contract against the shared stack's Kafka, a fresh topic per test. */
@ExtendWith(StackExtension.class)
class KafkaSchemaLogIT extends SchemaLogContract {

    private String bootstrap;
    private String topic;

    @BeforeEach
    void freshTopic(TestStack stack) {
        bootstrap = stack.kafkaInternalBootstrap(); // the dev registry keeps its log through the internal listener
        topic = stack.uniqueTopic("schemas");
    }

    @Override
    protected SchemaLog openLog() {
        return KafkaSchemaLog.open(bootstrap, topic, (short) 1);
    }

    @Test
    void createsACompactedSinglePartitionTopic() throws Exception {
        openLog().close();

        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            var description = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            var resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            var config = admin.describeConfigs(List.of(resource)).all().get().get(resource);

            assertThat(description.partitions()).hasSize(1);
            assertThat(config.get(TopicConfig.CLEANUP_POLICY_CONFIG).value()).isEqualTo(TopicConfig.CLEANUP_POLICY_COMPACT);
        }
    }
}
