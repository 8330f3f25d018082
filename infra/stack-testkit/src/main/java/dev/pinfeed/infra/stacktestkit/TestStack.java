package dev.pinfeed.infra.stacktestkit;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.infra.stack.LocalStack;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What an integration test gets from {@link StackExtension}: the endpoints of the one shared stack
 * and helpers that keep tests apart on shared servers (fresh topic names, key prefixes, IDs).
 */
public final class TestStack {

    /** Distinguishes this test JVM's names from every earlier run's (the stack keeps its data). */
    private static final String RUN = Long.toString(System.currentTimeMillis(), 36);
    private static final AtomicLong COUNTER = new AtomicLong();
    private static final long ID_EPOCH_MS = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
    private static final AtomicLong LAST_ID = new AtomicLong();

    private final LocalStack stack;

    TestStack(LocalStack stack) {
        this.stack = stack;
    }

    public PinfeedConfig config() {
        return stack.config();
    }

    /** Starts, stops and restarts single servers of the shared stack (for durability tests). */
    public LocalStack servers() {
        return stack;
    }

    /** A Kafka topic name no other test or run uses: {@code it-<base>-<run>-<n>}. */
    public String uniqueTopic(String base) {
        return "it-" + base + "-" + RUN + "-" + COUNTER.incrementAndGet();
    }

    /**
     * What a Kafka client of a test needs to reach the stack's broker: the bootstrap servers and the stack's
     * {@code kafka.client.*} settings (its SCRAM login), as pinfeed's own clients get them (KafkaClients). For a
     * test's client that pinfeed's settings do not build.
     */
    public Properties kafkaClientProperties() {
        Properties p = new Properties();
        p.putAll(config().withPrefix("kafka.client."));
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config().kafkaBootstrap());
        return p;
    }

    /** Where the stack's own tools reach Kafka without logging in (the broker's internal listener): the dev registry's log. */
    public String kafkaInternalBootstrap() {
        return stack.kafkaInternalBootstrap();
    }

    /**
     * Creates topics (name → partitions, replication 1) and returns once every partition has a
     * leader: a producer that starts right after {@code createTopics} returned can otherwise wait
     * for metadata long enough to expire its batches on a busy machine.
     */
    public void createTopics(Map<String, Integer> partitionsByTopic) {
        try (Admin admin = Admin.create(kafkaClientProperties())) {
            admin.createTopics(partitionsByTopic.entrySet().stream()
                    .map(e -> new NewTopic(e.getKey(), e.getValue(), (short) 1)).toList()).all().get(60, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (true) {
                Map<String, TopicDescription> described;
                try {
                    described = admin.describeTopics(partitionsByTopic.keySet()).allTopicNames().get(30, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException notYetKnown) {
                    described = Map.of();
                }
                boolean ready = described.size() == partitionsByTopic.size() && described.values().stream()
                        .flatMap(d -> d.partitions().stream()).map(TopicPartitionInfo::leader).allMatch(l -> l != null && !l.isEmpty());
                if (ready) break;
                if (System.nanoTime() > deadline) throw new IllegalStateException("topics have no leader after 60 s: " + partitionsByTopic.keySet());
                Thread.sleep(100);
            }
            // The broker names a leader (its metadata cache) a moment before its replica manager
            // opens the partition. A produce in between fails retriably while the next batch to
            // the same partition succeeds, and the first one then spins on OUT_OF_ORDER_SEQUENCE
            // until it expires (KAFKA-15591). A ListOffsets answer comes from the opened
            // partition, so once every partition answers, the first produce cannot be refused.
            Map<TopicPartition, OffsetSpec> ends = new java.util.HashMap<>();
            partitionsByTopic.forEach((topic, n) -> {
                for (int p = 0; p < n; p++) ends.put(new TopicPartition(topic, p), OffsetSpec.latest());
            });
            while (true) {
                try {
                    admin.listOffsets(ends).all().get(30, TimeUnit.SECONDS);
                    return;
                } catch (java.util.concurrent.ExecutionException notYetOpen) {
                    if (System.nanoTime() > deadline) throw new IllegalStateException("topics not open after 60 s: " + partitionsByTopic.keySet(), notYetOpen);
                    Thread.sleep(100);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("could not create topics " + partitionsByTopic.keySet() + ": " + e.getMessage(), e);
        }
    }

    /**
     * The records of {@code topic} from its beginning (every partition, no group, nothing committed),
     * reading until {@code expected} arrived or {@code wait} passed: dead letters, a topic written back.
     */
    public List<ConsumerRecord<byte[], byte[]>> records(String topic, int expected, Duration wait) {
        List<ConsumerRecord<byte[], byte[]>> out = new java.util.ArrayList<>();
        Properties settings = kafkaClientProperties();
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, wait).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + wait.toNanos();
            while (out.size() < expected && System.nanoTime() < deadline) consumer.poll(Duration.ofMillis(200)).forEach(out::add);
        }
        return out;
    }

    /** A header's value as text, or null when the record has none. */
    public static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        org.apache.kafka.common.header.Header h = record.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** {@link #createTopics(Map)} with the same partition count for each. */
    public void createTopics(int partitions, List<String> topics) {
        createTopics(topics.stream().collect(java.util.stream.Collectors.toMap(t -> t, t -> partitions, (a, b) -> a, java.util.LinkedHashMap::new)));
    }

    /** A name for tables, databases, subjects, znodes: lower-case letters, digits and underscores. */
    public String uniqueName(String base) {
        return (base + "_" + RUN + "_" + COUNTER.incrementAndGet()).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
    }

    /** A Redis / HBase key prefix no other test or run uses, ending in ':'. */
    public String keyPrefix(String base) {
        return "it:" + base + ":" + RUN + "-" + COUNTER.incrementAndGet() + ":";
    }

    /**
     * A positive long never returned before on this machine (milliseconds since 2026 shifted left
     * 12 bits, bumped within a millisecond): fresh user/board IDs for tests over persistent data.
     */
    public long freshId() {
        long candidate = (System.currentTimeMillis() - ID_EPOCH_MS) << 12;
        return LAST_ID.accumulateAndGet(candidate, (last, next) -> Math.max(last + 1, next));
    }
}
