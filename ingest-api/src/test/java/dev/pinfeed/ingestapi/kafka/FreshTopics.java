package dev.pinfeed.ingestapi.kafka;

import dev.pinfeed.eventsschema.AvroEventDeserializer;
import dev.pinfeed.eventsschema.CachingSchemaRegistryClient;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import dev.pinfeed.infra.stacktestkit.TestStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** A fresh copy of every event topic for one test class, and a reader of what reached them. */
public final class FreshTopics {

    private final TestStack stack;
    private final Map<String, String> overrides = new LinkedHashMap<>();

    public FreshTopics(TestStack stack) throws Exception {
        this.stack = stack;
        List<String> topics = new ArrayList<>();
        for (String standard : List.of(EventTopics.USERS, EventTopics.BOARDS, EventTopics.PINS, EventTopics.FOLLOWS, EventTopics.LIKES,
                EventTopics.COMMENTS, EventTopics.INTERESTS)) {
            String fresh = stack.uniqueTopic(standard.replace("pinfeed.", "").replace(".v1", ""));
            overrides.put(standard, fresh);
            topics.add(fresh);
        }
        stack.createTopics(3, topics);
    }

    /** Standard topic → this test's topic. */
    public Map<String, String> overrides() {
        return overrides;
    }

    public String topic(String standard) {
        return overrides.get(standard);
    }

    /** Every event on this test's topics, decoded; polls until {@code atLeast} arrived or {@code wait} passed. */
    public List<SpecificRecord> events(int atLeast, Duration wait) {
        return records(atLeast, wait).stream().map(ConsumerRecord::value).toList();
    }

    public List<ConsumerRecord<String, SpecificRecord>> records(int atLeast, Duration wait) {
        Properties p = stack.kafkaClientProperties();
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "it-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        AvroEventDeserializer avro = new AvroEventDeserializer(
                new CachingSchemaRegistryClient(HttpSchemaRegistryClient.from(stack.config())));
        List<ConsumerRecord<String, SpecificRecord>> out = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(overrides.values());
            long deadline = System.nanoTime() + wait.toNanos();
            // Keep polling a little after reaching atLeast, so extra (unexpected) events are seen too.
            long settleUntil = Long.MAX_VALUE;
            while (System.nanoTime() < Math.min(deadline, settleUntil)) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    out.add(new ConsumerRecord<>(r.topic(), r.partition(), r.offset(), r.key(), avro.deserialize(r.topic(), r.value())));
                }
                if (out.size() >= atLeast && settleUntil == Long.MAX_VALUE) settleUntil = System.nanoTime() + 1_000_000_000L;
            }
        }
        return out;
    }
}
