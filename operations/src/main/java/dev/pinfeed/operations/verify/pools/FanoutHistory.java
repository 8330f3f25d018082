package dev.pinfeed.operations.verify.pools;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.events.FanoutAction;
import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.events.FanoutReceiver;
import dev.pinfeed.eventsschema.AvroEventDeserializer;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.feedworker.FeedWorker;
import dev.pinfeed.feedworker.process.FeedWorkerMain;
import dev.pinfeed.operations.verify.canonical.TopicHistory;
import dev.pinfeed.processorruntime.KafkaClients;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The fan-out's chunks as the feed worker has applied them: the chunk topic and its bulk lane, each read
 * from its start (what retention kept, 7 days) up to the offsets the worker's consumer group of that lane
 * committed (no group of its own; nobody's offsets move). A chunk past them is not applied yet, so it
 * expects nothing; the summary says how many records that is.
 */
public final class FanoutHistory {

    /** What was read: records, records that did not decode as a chunk, records past the worker's offsets, per topic the group read at. */
    public record Summary(long records, long undecodable, long notYetApplied, Map<String, String> groups) {}

    private FanoutHistory() {}

    /** Reads {@code chunkTopic} (and its bulk lane, when it exists) into {@code into}; {@code onRecord} runs after each record. */
    public static Summary read(PinfeedConfig config, String chunkTopic, String workerGroup, Deliveries into, Runnable onRecord) {
        AvroEventDeserializer decoder = AvroEventDeserializer.from(config);
        Map<String, String> groups = new LinkedHashMap<>();
        groups.put(chunkTopic, workerGroup);
        Map<TopicPartition, Long> committed = new LinkedHashMap<>();
        try (Admin admin = Admin.create(KafkaClients.admin(config))) {
            Set<String> topics = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            if (!topics.contains(chunkTopic)) throw new IllegalArgumentException("no topic " + chunkTopic);
            String bulk = EventTopics.bulkLaneOf(chunkTopic);
            if (topics.contains(bulk)) groups.put(bulk, FeedWorkerMain.bulkGroup(workerGroup));
            for (Map.Entry<String, String> g : groups.entrySet()) {
                Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(g.getValue()).partitionsToOffsetAndMetadata()
                        .get(30, TimeUnit.SECONDS);
                offsets.forEach((tp, o) -> {
                    if (tp.topic().equals(g.getKey()) && o != null) committed.put(tp, o.offset());
                });
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the feed worker's offsets", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read the feed worker's offsets from Kafka: " + e.getMessage(), e);
        }
        AtomicLong pending = new AtomicLong();
        AtomicLong undecodable = new AtomicLong();
        long records = TopicHistory.readUpTo(config, new ArrayList<>(groups.keySet()), (tp, end) -> {
            long stop = Math.min(end, committed.getOrDefault(tp, 0L));
            pending.addAndGet(end - stop);
            return stop;
        }, (topic, r) -> {
            SpecificRecord event;
            try {
                event = r.value() == null ? null : decoder.deserialize(topic, r.value());
            } catch (RuntimeException e) {
                event = null;
            }
            if (event instanceof FanoutChunk chunk) add(chunk, r.timestamp(), into);
            else undecodable.incrementAndGet();
            onRecord.run();
        });
        return new Summary(records, undecodable.get(), pending.get(), groups);
    }

    private static void add(FanoutChunk chunk, long writtenAt, Deliveries into) {
        if (chunk.getAction() != FanoutAction.ADD) return; // a REMOVE withdraws a deleted pin: the canonical store says so
        for (FanoutReceiver r : chunk.getReceivers()) {
            into.add(r.getUserId(), chunk.getPinId(), FeedWorker.sourceOf(chunk, r), writtenAt);
        }
    }
}
