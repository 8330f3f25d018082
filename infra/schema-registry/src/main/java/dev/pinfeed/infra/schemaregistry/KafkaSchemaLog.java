package dev.pinfeed.infra.schemaregistry;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A {@link SchemaLog} in a single-partition compacted Kafka topic (one partition: replay order is
 * the order of registration).
 *
 * <p>Single writer: {@link #replay} reads the topic once, at start; records another process appends
 * later are not seen. Run one registry per topic (fine for dev; Confluent elects a leader instead).
 */
public final class KafkaSchemaLog implements SchemaLog {

    public static final String DEFAULT_TOPIC = "_schemas";
    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(3);

    private final String bootstrap;
    private final TopicPartition partition;
    private final KafkaProducer<byte[], byte[]> producer;

    private KafkaSchemaLog(String bootstrap, String topic) {
        this.bootstrap = bootstrap;
        this.partition = new TopicPartition(topic, 0);
        this.producer = new KafkaProducer<>(producerConfig(bootstrap));
    }

    /** Opens the log in {@code topic}, creating the topic (1 partition, compacted) if it does not exist. */
    public static KafkaSchemaLog open(String bootstrap, String topic, short replicationFactor) {
        ensureTopic(bootstrap, topic, replicationFactor);
        return new KafkaSchemaLog(bootstrap, topic);
    }

    public String topic() {
        return partition.topic();
    }

    @Override
    public void append(SchemaLogRecord record) {
        var message = new ProducerRecord<>(partition.topic(), partition.partition(), SchemaLogCodec.key(record), SchemaLogCodec.value(record));
        try {
            producer.send(message).get(); // acks=all: durable once acknowledged
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SchemaLogException("interrupted while writing to " + partition.topic(), e);
        } catch (ExecutionException e) {
            throw new SchemaLogException("could not write to " + partition.topic() + ": " + e.getCause().getMessage(), e.getCause());
        }
    }

    @Override
    public void replay(Consumer<SchemaLogRecord> sink) {
        try (var consumer = new KafkaConsumer<byte[], byte[]>(consumerConfig(bootstrap))) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition), CLIENT_TIMEOUT).get(partition);
            // Give up only when nothing arrives for a while, however long the whole replay takes.
            long stalledAfter = System.nanoTime() + CLIENT_TIMEOUT.toNanos();
            while (consumer.position(partition, CLIENT_TIMEOUT) < end) {
                var batch = consumer.poll(Duration.ofMillis(500));
                if (!batch.isEmpty()) {
                    stalledAfter = System.nanoTime() + CLIENT_TIMEOUT.toNanos();
                } else if (System.nanoTime() > stalledAfter) {
                    throw new SchemaLogException("replay of " + partition.topic() + " stalled before offset " + end, null);
                }
                for (ConsumerRecord<byte[], byte[]> record : batch) {
                    if (record.offset() < end) {
                        decode(record).ifPresent(sink);
                    }
                }
            }
        } catch (org.apache.kafka.common.KafkaException e) {
            throw new SchemaLogException("could not read " + partition.topic() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        producer.close(CLOSE_TIMEOUT);
    }

    private Optional<SchemaLogRecord> decode(ConsumerRecord<byte[], byte[]> record) {
        try {
            return SchemaLogCodec.decode(record.key(), record.value());
        } catch (RuntimeException e) {
            // Skipping would silently lose a schema; refuse to start instead.
            throw new SchemaLogException("unreadable record at " + partition + "@" + record.offset() + ": " + e.getMessage(), e);
        }
    }

    private static void ensureTopic(String bootstrap, String topic, short replicationFactor) {
        Properties config = new Properties();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) CLIENT_TIMEOUT.toMillis());
        try (Admin admin = Admin.create(config)) {
            NewTopic newTopic = new NewTopic(topic, 1, replicationFactor)
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
            try {
                admin.createTopics(List.of(newTopic)).all().get();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            if (description.partitions().size() != 1) {
                throw new SchemaLogException("topic " + topic + " has " + description.partitions().size()
                        + " partitions; the schema log needs exactly 1 to keep registration order", null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SchemaLogException("interrupted while creating topic " + topic, e);
        } catch (ExecutionException e) {
            throw new SchemaLogException("could not create topic " + topic + ": " + e.getCause().getMessage(), e.getCause());
        }
    }

    private static Properties producerConfig(String bootstrap) {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "schema-registry");
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) CLIENT_TIMEOUT.toMillis());
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) CLIENT_TIMEOUT.toMillis());
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return config;
    }

    private static Properties consumerConfig(String bootstrap) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "schema-registry-replay");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false); // assigned, no group: nothing to commit
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return config;
    }
}
