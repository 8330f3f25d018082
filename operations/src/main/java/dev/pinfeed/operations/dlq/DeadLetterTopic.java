package dev.pinfeed.operations.dlq;

import dev.pinfeed.clikit.Progress;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.operations.kafka.TopicRanges;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.common.TopicPartition;

/** The dead-letter topic, read without a consumer group: a range of it (from a time to its end), or single dead letters. */
public final class DeadLetterTopic {

    /** Where a read starts and ends, per partition, as of when it was planned. */
    public record Range(Map<TopicPartition, Long> from, Map<TopicPartition, Long> to) {
        public long records() {
            long n = 0;
            for (Map.Entry<TopicPartition, Long> e : from.entrySet()) n += Math.max(0, to.get(e.getKey()) - e.getValue());
            return n;
        }
    }

    private final TopicRanges ranges;
    private final String topic;

    public DeadLetterTopic(TopicRanges ranges, String topic) {
        this.ranges = ranges;
        this.topic = topic;
    }

    public String name() {
        return topic;
    }

    public List<TopicPartition> partitions() {
        if (!ranges.exists(topic)) {
            throw new IllegalStateException("no dead-letter topic " + topic + " (" + DeadLetters.TOPIC_KEY + " names it; ./pinfeed provision creates "
                    + DeadLetters.TOPIC + ")");
        }
        return ranges.partitions(topic);
    }

    /** From the first dead letter at or after {@code since} (null: the beginning) to the end as of now. */
    public Range range(Instant since) {
        List<TopicPartition> partitions = partitions();
        Map<TopicPartition, Long> from = since == null ? ranges.beginnings(partitions) : ranges.firstAtOrAfter(partitions, since.toEpochMilli());
        return new Range(from, ranges.ends(partitions));
    }

    /** Calls {@code each} with every dead letter of {@code range}, partition by partition in offset order. */
    public long read(Range range, Consumer<DeadLetter> each) {
        return ranges.read(range.from(), range.to(), r -> each.accept(DeadLetter.of(r)));
    }

    /**
     * {@link #read(Range, Consumer)} showing its progress on {@code err}: a line when it takes more than a second (then
     * every few seconds), and a last line with the count.
     */
    public long read(Range range, PrintWriter err, Clock clock, Consumer<DeadLetter> each) {
        long started = clock.millis();
        try (Progress progress = Progress.start(err, Progress.mode(false), "reading " + topic, range.records(), "dead letters", clock)) {
            long n = read(range, d -> {
                each.accept(d);
                progress.advance(1);
                if (clock.millis() - started >= 1_000) progress.tick();
            });
            progress.done(null);
            return n;
        }
    }

    /** The dead letters of {@code ids} the topic still holds (an id beyond a partition's end, or purged, is left out). */
    public Map<DeadLetterId, DeadLetter> fetch(Collection<DeadLetterId> ids) {
        List<TopicPartition> partitions = partitions();
        Map<TopicPartition, Long> ends = ranges.ends(partitions);
        Map<DeadLetterId, DeadLetter> found = new HashMap<>();
        for (DeadLetterId id : ids) {
            TopicPartition tp = new TopicPartition(topic, id.partition());
            if (!ends.containsKey(tp) || id.offset() >= ends.get(tp)) continue;
            ranges.read(Map.of(tp, id.offset()), Map.of(tp, id.offset() + 1), r -> {
                if (r.offset() == id.offset()) found.put(id, DeadLetter.of(r));
            });
        }
        return found;
    }

    /** Why {@code id} is not there, for the one-line error. */
    public String whyMissing(DeadLetterId id) {
        List<TopicPartition> partitions = partitions();
        TopicPartition tp = new TopicPartition(topic, id.partition());
        if (!partitions.contains(tp)) return "no dead letter " + id + ": " + topic + " has partitions 0.." + (partitions.size() - 1);
        long first = ranges.beginnings(List.of(tp)).get(tp);
        long end = ranges.ends(List.of(tp)).get(tp);
        if (first >= end) return "no dead letter " + id + ": partition " + id.partition() + " of " + topic + " holds none";
        return "no dead letter " + id + ": partition " + id.partition() + " of " + topic + " holds offsets " + first + ".." + (end - 1)
                + (id.offset() < first ? " (older ones were purged or expired)" : "");
    }
}
