package dev.pinfeed.ingest.kafka;

import dev.pinfeed.events.CachingSchemaRegistryClient;
import dev.pinfeed.events.HttpSchemaRegistryClient;
import dev.pinfeed.infra.test.StackExtension;
import dev.pinfeed.infra.test.TestStack;
import dev.pinfeed.ingest.core.EventPublisher;
import dev.pinfeed.ingest.core.EventPublisherContract;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** The publisher contract against the real Kafka and registry. */
@ExtendWith(StackExtension.class)
class KafkaEventPublisherIT extends EventPublisherContract {

    private FreshTopics topics;
    private KafkaEventPublisher publisher;

    @BeforeEach
    void connect(TestStack stack) throws Exception {
        topics = new FreshTopics(stack);
        publisher = new KafkaEventPublisher(stack.config().kafkaBootstrap(),
                new CachingSchemaRegistryClient(new HttpSchemaRegistryClient(stack.config().schemaRegistryUrl())),
                topics.overrides(), new Properties());
    }

    @AfterEach
    void close() {
        publisher.close();
    }

    @Override
    protected EventPublisher publisher() {
        return publisher;
    }

    @Override
    protected List<SpecificRecord> publishedPins(int atLeast) {
        return topics.events(atLeast, Duration.ofSeconds(20));
    }
}
