package dev.pinfeed.graphprocessor;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.processorruntime.InputRecord;
import dev.pinfeed.processorruntime.KafkaClients;
import dev.pinfeed.processorruntime.RejectedRecordException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Applies a range of the graph topics to a store, as the processor would: every record of every partition
 * from given offsets (or the beginning) to given end offsets, without a consumer group (nobody's offsets
 * move). The graph is a function of the set of events, not of their order, so replaying the topics into an
 * empty store rebuilds the graph the live processor built, records may be applied in parallel, and a range
 * may be applied after an earlier one (how {@code ./pinfeed verify graph} catches its oracle up). Records
 * the processor dead-letters are not applied here either; they are counted by reason.
 */
public final class GraphRebuild {

    /** How a replay reports its progress, and is asked to stop (between two batches). */
    public interface Listener {
        /** {@code records} more records read (applied, ignored or rejected). */
        default void read(long records) {}

        default boolean stopRequested() {
            return false;
        }
    }

    /**
     * What a replay did: records read; applied; ignored (they share a graph topic without changing the
     * graph); rejected by dead-letter reason; the offset reached per partition (everything before it
     * applied; equal to the end asked for unless stopped).
     */
    public record Result(long records, long applied, long ignored, Map<String, Long> rejected, Map<TopicPartition, Long> reached,
                         boolean stopped, Duration took) {}

    private GraphRebuild() {}

    /** Replays {@code topics} from the beginning to their end offsets now into {@code target}, with {@code threads} writers. */
    public static Result replay(PinfeedConfig config, List<String> topics, Deserializer<SpecificRecord> decoder, GraphStore target, int threads)
            throws InterruptedException {
        return replay(config, Map.of(), endOffsets(config, topics), decoder, target, threads, new Listener() {});
    }

    /** Every partition of {@code topics} with its end offset now; a topic that does not exist is an error. */
    public static Map<TopicPartition, Long> endOffsets(PinfeedConfig config, List<String> topics) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(config)) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : topics) {
                List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
                if (infos == null || infos.isEmpty()) throw new IllegalStateException("no topic " + topic);
                for (PartitionInfo p : infos) partitions.add(new TopicPartition(p.topic(), p.partition()));
            }
            return new LinkedHashMap<>(consumer.endOffsets(partitions, Duration.ofSeconds(30)));
        }
    }

    /**
     * Applies every record of the partitions of {@code to}, from the offset in {@code from} (the beginning
     * when absent) up to, not including, the offset in {@code to}; returns once every partition got there,
     * or at the first batch boundary after {@code listener} asked to stop.
     */
    public static Result replay(PinfeedConfig config, Map<TopicPartition, Long> from, Map<TopicPartition, Long> to,
                                Deserializer<SpecificRecord> decoder, GraphStore target, int threads, Listener listener)
            throws InterruptedException {
        long start = System.nanoTime();
        Tally tally = new Tally();
        long records = 0;
        Map<TopicPartition, Long> reached = new LinkedHashMap<>();
        to.forEach((tp, end) -> reached.put(tp, Math.min(end, from.getOrDefault(tp, 0L))));
        boolean stopped = false;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(config)) {
            List<TopicPartition> open = new ArrayList<>(to.keySet().stream().filter(tp -> from.getOrDefault(tp, 0L) < to.get(tp)).toList());
            consumer.assign(open);
            for (TopicPartition tp : open) {
                if (from.containsKey(tp)) consumer.seek(tp, from.get(tp));
                else consumer.seekToBeginning(List.of(tp));
            }
            while (!open.isEmpty()) {
                if (listener.stopRequested()) {
                    stopped = true;
                    break;
                }
                List<Callable<Void>> batch = new ArrayList<>();
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.offset() >= to.get(new TopicPartition(r.topic(), r.partition()))) continue;
                    batch.add(() -> {
                        apply(decoder, target, r, tally);
                        return null;
                    });
                }
                for (Future<Void> f : pool.invokeAll(batch)) {
                    try {
                        f.get();
                    } catch (ExecutionException e) {
                        throw new IllegalStateException("replay failed: " + e.getCause().getMessage(), e.getCause());
                    }
                }
                records += batch.size();
                listener.read(batch.size());
                for (TopicPartition tp : open) reached.put(tp, Math.min(to.get(tp), consumer.position(tp)));
                List<TopicPartition> done = open.stream().filter(tp -> reached.get(tp) >= to.get(tp)).toList();
                if (!done.isEmpty()) {
                    open.removeAll(done);
                    consumer.assign(open);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        return new Result(records, tally.applied.get(), tally.ignored.get(), Map.copyOf(tally.rejected), reached, stopped,
                Duration.ofNanos(System.nanoTime() - start));
    }

    private static KafkaConsumer<byte[], byte[]> consumer(PinfeedConfig config) {
        return new KafkaConsumer<>(KafkaClients.reader(config), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static final class Tally {
        final AtomicLong applied = new AtomicLong();
        final AtomicLong ignored = new AtomicLong();
        final Map<String, Long> rejected = new ConcurrentHashMap<>();

        void reject(String reason) {
            rejected.merge(reason, 1L, Long::sum);
        }
    }

    private static void apply(Deserializer<SpecificRecord> decoder, GraphStore target, ConsumerRecord<byte[], byte[]> r, Tally tally) {
        SpecificRecord event;
        try {
            event = r.value() == null ? null : decoder.deserialize(r.topic(), r.value());
        } catch (StoreUnavailableException e) {
            throw e; // the registry is down: the replay fails rather than skip records
        } catch (RuntimeException e) {
            event = null;
        }
        if (event == null) {
            tally.reject(DeadLetters.UNDECODABLE); // the live processor dead-lettered it too
            return;
        }
        try {
            new GraphEventHandler(target).apply(new InputRecord(r, event)); // rejects what the live processor rejects
        } catch (RejectedRecordException e) {
            tally.reject(e.reason());
            return;
        }
        if (GraphEvents.toCommand(event).isPresent()) tally.applied.incrementAndGet(); else tally.ignored.incrementAndGet();
    }
}
