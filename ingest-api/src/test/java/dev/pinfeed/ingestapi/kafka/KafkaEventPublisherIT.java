package dev.pinfeed.ingestapi.kafka;

import dev.pinfeed.eventsschema.CachingSchemaRegistryClient;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import dev.pinfeed.infra.stacktestkit.StackExtension;
import dev.pinfeed.infra.stacktestkit.TestStack;
import dev.pinfeed.ingestapi.core.EventPublisher;
import dev.pinfeed.ingestapi.core.EventPublisherContract;
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
        publisher = new KafkaEventPublisher(stack.config(),
                new CachingSchemaRegistryClient(HttpSchemaRegistryClient.from(stack.config())),
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
