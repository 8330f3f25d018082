package dev.pinfeed.console.kafka;

import dev.pinfeed.config.PinfeedConfig;
import dev.pinfeed.console.pipeline.PipelineSnapshot.ReasonCount;
import dev.pinfeed.console.pipeline.PipelineSources.DeadLetterSource;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.processorruntime.KafkaClients;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Dead letters by topic and reason ({@link DeadLetters#HEADER_REASON}), counted incrementally: one consumer, no group,
 * assigned every partition of the dead-letter topics from its beginning, each call reading on from where the last
 * stopped (for at most {@code budget}), so a sample costs what arrived since the last. The topics are listed again
 * every {@link #RELIST}: new dead-letter topics join, deleted ones leave, and a partition whose beginning moved past
 * where its count started (a purge, retention) is counted again from its new beginning.
 *
 * <p>Dead-letter topics: the configured ones ({@value DeadLetters#TOPIC_KEY}, {@code fanout.dead-letter-topic}) and
 * those matching {@value #PATTERN_KEY} (default {@value #DEFAULT_PATTERN}), never the redrive log.
 */
public final class DeadLetterCounter implements DeadLetterSource, AutoCloseable {

    public static final String PATTERN_KEY = "console.dead-letters.pattern";
    public static final String DEFAULT_PATTERN = "pinfeed\\.dead-letter\\..+";
    static final Duration RELIST = Duration.ofSeconds(30);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);
    private static final String NO_REASON = "unknown";

    /** One partition's counts, from offset {@code from} on. */
    private static final class Counted {
        final long from;
        final Map<String, Long> byReason = new HashMap<>();

        Counted(long from) {
            this.from = from;
        }
    }

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Predicate<String> deadLetterTopic;
    private final Clock clock;
    private final Duration budget;
    private final Map<TopicPartition, Counted> counted = new HashMap<>();
    private Instant listed;

    public DeadLetterCounter(PinfeedConfig config, Clock clock, Duration budget) {
        Set<String> named = new HashSet<>();
        named.add(DeadLetters.topic(config));
        config.find("fanout.dead-letter-topic").ifPresent(named::add);
        Pattern pattern = Pattern.compile(config.get(PATTERN_KEY, DEFAULT_PATTERN));
        String redrives = DeadLetters.redrivesTopic(config);
        this.deadLetterTopic = topic -> !topic.equals(redrives) && (named.contains(topic) || pattern.matcher(topic).matches());
        Properties settings = KafkaClients.reader(config);
        settings.put(ConsumerConfig.CLIENT_ID_CONFIG, "console-dead-letters");
        this.consumer = new KafkaConsumer<>(settings, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.clock = clock;
        this.budget = budget;
    }

    @Override
    public synchronized List<ReasonCount> counts() {
        Instant now = clock.instant();
        if (listed == null || !now.isBefore(listed.plus(RELIST))) {
            relist();
            listed = now;
        }
        readOn();
        Map<List<String>, Long> sums = new HashMap<>(); // (topic, reason) → count; the monitor orders them
        counted.forEach((tp, c) -> c.byReason.forEach((reason, n) -> sums.merge(List.of(tp.topic(), reason), n, Long::sum)));
        List<ReasonCount> out = new ArrayList<>();
        sums.forEach((key, n) -> out.add(new ReasonCount(key.get(1), key.get(0), n)));
        return out;
    }

    private void relist() {
        Set<TopicPartition> wanted = new HashSet<>();
        for (Map.Entry<String, List<PartitionInfo>> t : consumer.listTopics(CALL_TIMEOUT).entrySet()) {
            if (!deadLetterTopic.test(t.getKey())) continue;
            for (PartitionInfo p : t.getValue()) wanted.add(new TopicPartition(p.topic(), p.partition()));
        }
        counted.keySet().retainAll(wanted);
        Map<TopicPartition, Long> beginnings = wanted.isEmpty() ? Map.of() : consumer.beginningOffsets(wanted, CALL_TIMEOUT);
        consumer.assign(wanted); // partitions kept keep their positions
        for (TopicPartition tp : wanted) {
            long beginning = beginnings.getOrDefault(tp, 0L);
            Counted c = counted.get(tp);
            if (c == null || beginning > c.from) {
                counted.put(tp, new Counted(beginning));
                consumer.seek(tp, beginning);
            }
        }
    }

    /** Reads what arrived since the last call, up to the ends as of now, for at most the budget. */
    private void readOn() {
        if (counted.isEmpty()) return;
        Map<TopicPartition, Long> ends = consumer.endOffsets(counted.keySet(), CALL_TIMEOUT);
        long deadline = System.nanoTime() + budget.toNanos();
        while (behind(ends) && System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                Counted c = counted.get(new TopicPartition(r.topic(), r.partition()));
                if (c != null) c.byReason.merge(reason(r), 1L, Long::sum);
            }
        }
    }

    private boolean behind(Map<TopicPartition, Long> ends) {
        for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
            if (consumer.position(e.getKey(), CALL_TIMEOUT) < e.getValue()) return true;
        }
        return false;
    }

    private static String reason(ConsumerRecord<byte[], byte[]> r) {
        Header h = r.headers().lastHeader(DeadLetters.HEADER_REASON);
        return h == null || h.value() == null ? NO_REASON : new String(h.value(), StandardCharsets.UTF_8);
    }

    @Override
    public synchronized void close() {
        consumer.close(CloseOptions.timeout(CALL_TIMEOUT));
    }
}
