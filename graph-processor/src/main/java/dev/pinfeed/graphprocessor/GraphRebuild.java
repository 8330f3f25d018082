package dev.pinfeed.graphprocessor;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.processorruntime.CuratorClients;
import dev.pinfeed.processorruntime.InputRecord;
import dev.pinfeed.processorruntime.KafkaClients;
import dev.pinfeed.processorruntime.ProcessMain;
import dev.pinfeed.processorruntime.RejectedRecordException;
import dev.pinfeed.eventsschema.AvroEventDeserializer;
import dev.pinfeed.eventsschema.CachingSchemaRegistryClient;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.eventsschema.HttpSchemaRegistryClient;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.InvalidCommandException;
import dev.pinfeed.followergraph.redis.GraphConnections;
import dev.pinfeed.followergraph.redis.RedisGraphStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds the whole graph from the topics: every record of the follow and board topics, from the
 * beginning to the end offsets seen at start, applied to an empty target. The topics keep events
 * forever ({@code retention.ms=-1}), and the graph is a function of the set of events — not of their
 * order — so this converges to what the live processor built, and may apply records in parallel.
 * Records the live processor dead-lettered are skipped and counted here.
 *
 * <p>{@code java -cp ... dev.pinfeed.graphprocessor.GraphRebuild --prefix <key prefix> [--threads N] [--force]}:
 * into the configured Redis instances under that prefix; refuses a target that already holds keys
 * unless {@code --force}.
 */
public final class GraphRebuild {

    public record Result(long records, long applied, long ignored, long rejected, Duration took) {}

    private GraphRebuild() {}

    /** Replays {@code topics} into {@code target} with {@code threads} writers; returns once the end offsets are reached. */
    public static Result replay(String bootstrap, List<String> topics, Deserializer<SpecificRecord> decoder, GraphStore target, int threads)
            throws InterruptedException {
        long start = System.nanoTime();
        Properties c = KafkaClients.reader(bootstrap);
        AtomicLong applied = new AtomicLong();
        AtomicLong ignored = new AtomicLong();
        AtomicLong rejected = new AtomicLong();
        long records = 0;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : topics) {
                for (PartitionInfo p : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
                    partitions.add(new TopicPartition(p.topic(), p.partition()));
                }
            }
            consumer.assign(partitions); // no group: a rebuild neither reads nor moves the live processor's offsets
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                List<Callable<Void>> batch = new ArrayList<>();
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.offset() >= end.get(new TopicPartition(r.topic(), r.partition()))) continue;
                    records++;
                    batch.add(() -> {
                        apply(decoder, target, r, applied, ignored, rejected);
                        return null;
                    });
                }
                for (Future<Void> f : pool.invokeAll(batch)) {
                    try {
                        f.get();
                    } catch (ExecutionException e) {
                        throw new IllegalStateException("rebuild failed: " + e.getCause(), e.getCause());
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
        return new Result(records, applied.get(), ignored.get(), rejected.get(), Duration.ofNanos(System.nanoTime() - start));
    }

    private static void apply(Deserializer<SpecificRecord> decoder, GraphStore target, ConsumerRecord<byte[], byte[]> r,
                              AtomicLong applied, AtomicLong ignored, AtomicLong rejected) {
        SpecificRecord event;
        try {
            event = decoder.deserialize(r.topic(), r.value());
        } catch (StoreUnavailableException e) {
            throw e; // the registry is down: the rebuild fails rather than skip records
        } catch (RuntimeException e) {
            rejected.incrementAndGet(); // the live processor dead-lettered it too
            return;
        }
        if (event == null) {
            rejected.incrementAndGet();
            return;
        }
        try {
            new GraphEventHandler(target).apply(new InputRecord(r, event));
            if (GraphEvents.toCommand(event).isPresent()) applied.incrementAndGet(); else ignored.incrementAndGet();
        } catch (RejectedRecordException e) {
            rejected.incrementAndGet();
        }
    }

    public static void main(String[] args) throws Exception {
        ProcessMain.configureLogging();
        String prefix = null;
        int threads = 4;
        boolean force = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--prefix" -> prefix = args[++i];
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--force" -> force = true;
                default -> {
                    System.err.println("usage: GraphRebuild --prefix <key prefix, '' for the bare instances> [--threads N] [--force]");
                    System.exit(2);
                }
            }
        }
        if (prefix == null) {
            System.err.println("usage: GraphRebuild --prefix <key prefix, '' for the bare instances> [--threads N] [--force]");
            System.exit(2);
        }
        PinfeedConfig config = PinfeedConfig.load();
        try (CuratorFramework zk = CuratorClients.start(config);
             GraphConnections connections = GraphConnections.open(config, zk, prefix)) {
            RedisGraphStore target = connections.store();
            if (!force && !target.isEmpty()) {
                System.err.println("target prefix '" + prefix + "' already holds keys; rebuild into an empty prefix or pass --force");
                System.exit(1);
            }
            Result result = replay(config.kafkaBootstrap(), List.of(EventTopics.FOLLOWS, EventTopics.BOARDS),
                    new AvroEventDeserializer(new CachingSchemaRegistryClient(new HttpSchemaRegistryClient(config.schemaRegistryUrl()))),
                    target, threads);
            Logger log = LoggerFactory.getLogger(GraphRebuild.class); // after main chose the logging configuration
            log.info("rebuilt graph under prefix '{}': {}", prefix, result);
            System.out.println(result);
        }
    }
}
