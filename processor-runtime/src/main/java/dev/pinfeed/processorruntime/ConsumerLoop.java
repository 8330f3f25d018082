package dev.pinfeed.processorruntime;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.eventsschema.DeadLetters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The poll-apply-commit loop every processor runs. Per poll: decode each record (an undecodable one
 * goes to the dead-letter topic), hand the batch to the {@link BatchHandler}, settle each record —
 * applied, dead-lettered, or <b>parked</b> — and commit, per partition, up to the first record not
 * yet settled for good. At-least-once: a crash replays from the committed offset and the handlers'
 * idempotent writes absorb the repeats.
 *
 * <p>Parking is how a store outage is waited out without stalling the rest: a record whose store is
 * down (the handler marks it, or throws {@link StoreUnavailableException}) is set aside and retried
 * with backoff, while later records — which may touch healthy stores — go on. Offsets are never
 * committed past a parked record, so a crash loses nothing. Past {@code maxParked} parked records
 * the loop pauses the partitions that hold them until they drain (memory stays bounded; the other
 * partitions go on). Handlers therefore must not
 * depend on the order of two records of one key when the earlier one is parked; every pinfeed sink
 * is order-free per key (last writer wins by event version).
 *
 * <p>A record waiting for something it refers to ({@link Outcomes#waitFor}: a like before its pin) is
 * dead-lettered only once its grace has run out <i>and</i> the loop has since read everything its
 * partitions held when the grace ran out: a parent still unread in a backlog is not missing, however
 * long the backlog takes; the same holds for the topics of other processors that write what it refers to
 * ({@link Settings#withUpstream}: the materializer's pins, for feed-worker's likes). Retries take at most half the loop's time, so a large set of waiting records
 * does not slow the reading of the records they wait for.
 *
 * <p>An unexpected exception is a bug, not an outage: the batch is split to find the record that
 * throws, that record is retried {@code bugAttempts} times and then dead-lettered as
 * {@link DeadLetters#PROCESSING_ERROR}, so one bad record cannot wedge the processor.
 */
public final class ConsumerLoop implements Runnable, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumerLoop.class);
    /** The store name parked bug retries are counted under. */
    static final String BUG = "(error)";
    /** The store name records a handler deferred to a later turn are counted under. */
    static final String DEFERRED = "(deferred)";

    /**
     * @param processor  the {@code processor} tag of every metric
     * @param maxParked  parked records at which the loop pauses its partitions
     * @param bugAttempts attempts of a record failing with an unexpected exception before it is dead-lettered
     * @param upstream   how far the processors that write what waiting records refer to have got ({@link #withUpstream})
     */
    public record Settings(String processor, String groupId, List<String> topics, Duration pollTimeout, int maxParked,
                           Duration retryMin, Duration retryMax, int bugAttempts, Duration stallLimit, Duration waitGrace,
                           Map<TopicPartition, Range> bounds, ReadHorizon upstream) {

        public static Settings of(String processor, String groupId, List<String> topics) {
            return new Settings(processor, groupId, List.copyOf(topics), Duration.ofMillis(200), 10_000,
                    Duration.ofMillis(100), Duration.ofSeconds(5), 3, Duration.ofSeconds(60), Duration.ofSeconds(60), null, ReadHorizon.CAUGHT_UP);
        }

        public Settings withRetry(Duration min, Duration max) {
            return new Settings(processor, groupId, topics, pollTimeout, maxParked, min, max, bugAttempts, stallLimit, waitGrace, bounds, upstream);
        }

        public Settings withMaxParked(int max) {
            return new Settings(processor, groupId, topics, pollTimeout, max, retryMin, retryMax, bugAttempts, stallLimit, waitGrace, bounds, upstream);
        }

        /** How long a record may wait for something it refers to ({@link Outcomes#waitFor}) before it is dead-lettered. */
        public Settings withWaitGrace(Duration grace) {
            return new Settings(processor, groupId, topics, pollTimeout, maxParked, retryMin, retryMax, bugAttempts, stallLimit, grace, bounds, upstream);
        }

        /**
         * A bounded run (an operator's replay of a range): no consumer group, the given partitions read from each
         * range's start to its end (exclusive), nothing committed; the loop ends once every record of the ranges
         * is settled (applied or dead-lettered).
         */
        public Settings bounded(Map<TopicPartition, Range> ranges) {
            return new Settings(processor, groupId, topics, pollTimeout, maxParked, retryMin, retryMax, bugAttempts, stallLimit, waitGrace,
                    Map.copyOf(ranges), upstream);
        }

        /**
         * What waiting records refer to is written by other processors, reading other topics: a record is dead-lettered only
         * once {@code upstream} has also got past its grace's end (their backlog may still hold it).
         */
        public Settings withUpstream(ReadHorizon horizon) {
            return new Settings(processor, groupId, topics, pollTimeout, maxParked, retryMin, retryMax, bugAttempts, stallLimit, waitGrace,
                    bounds, horizon);
        }

        public boolean isBounded() {
            return bounds != null;
        }
    }

    /** Offsets {@code [from, to)} of one partition. */
    public record Range(long from, long to) {
        public long size() {
            return Math.max(0, to - from);
        }
    }

    /** A record waiting for a retry; {@code since} is when it was first parked. */
    private record Parked(ConsumerRecord<byte[], byte[]> raw, String store, int attempts, long since) {}

    /** What the loop knows of one assigned partition. */
    private static final class PartitionState {
        /** The offset after the last record settled or parked; -1 until the first record. */
        long position = -1;
        long committed = -1;
        final TreeMap<Long, Parked> parked = new TreeMap<>();

        long frontier() {
            return parked.isEmpty() ? position : parked.firstKey();
        }
    }

    private final Consumer<byte[], byte[]> consumer;
    private final Deserializer<SpecificRecord> decoder;
    private final BatchHandler handler;
    private final DeadLetterWriter deadLetters;
    private final Settings settings;
    private final Clock clock;
    private final MeterRegistry meters;
    private final Map<TopicPartition, PartitionState> partitions = new HashMap<>();
    private final Timer applyTimer;
    private final CountDownLatch stopped = new CountDownLatch(1);

    private volatile boolean closing;
    private volatile boolean running;
    private volatile boolean joined;
    private volatile long lastPollMillis;
    private volatile int parkedCount;
    private volatile int outageCount;
    private volatile String lastOutage = "";
    private volatile Set<TopicPartition> assigned = Set.of();
    private long retryDelayMillis;
    private long nextRetryAtMillis;
    /** The log ends of the partitions being read when {@link #horizonTakenAt} was taken; null when none is pending. */
    private Map<TopicPartition, Long> horizon;
    private long horizonTakenAt;
    /** The latest time at which every record then in the partitions being read had been read. */
    private long readAllUntil = Long.MIN_VALUE;
    /** Least time between two snapshots of the log ends, and how long one may take. */
    static final long HORIZON_EVERY_MS = 1_000;
    static final Duration HORIZON_TIMEOUT = Duration.ofSeconds(5);

    public ConsumerLoop(Consumer<byte[], byte[]> consumer, Deserializer<SpecificRecord> decoder, BatchHandler handler,
                        DeadLetterWriter deadLetters, Settings settings, Clock clock, MeterRegistry meters) {
        this.consumer = consumer;
        this.decoder = decoder;
        this.handler = handler;
        this.deadLetters = deadLetters;
        this.settings = settings;
        this.clock = clock;
        this.meters = meters;
        this.retryDelayMillis = settings.retryMin().toMillis();
        this.applyTimer = Timer.builder("pinfeed.batch.apply").description("Time to apply one batch of records.")
                .tag("processor", settings.processor()).register(meters);
        Gauge.builder("pinfeed.parked.records", this, l -> l.parkedCount)
                .description("Records waiting for a store to come back (offsets are not committed past them).")
                .tag("processor", settings.processor()).register(meters);
    }

    public Settings settings() {
        return settings;
    }

    @Override
    public void run() {
        try {
            subscribe();
            while (!closing) pollOnce();
        } catch (WakeupException e) {
            if (!closing) throw e;
        } catch (RuntimeException | Error e) {
            if (!closing) {
                LOG.error("{}: the consumer loop stopped: {}", settings.processor(), e.toString(), e);
                throw e;
            }
        } finally {
            try {
                commit(partitions.keySet());
            } catch (RuntimeException e) {
                LOG.warn("{}: final offset commit failed (those records will be applied again): {}", settings.processor(), e.toString());
            }
            running = false;
            consumer.close();
            stopped.countDown();
        }
    }

    void subscribe() {
        running = true;
        lastPollMillis = clock.millis();
        if (!settings.isBounded()) {
            consumer.subscribe(settings.topics(), new Rebalance());
            return;
        }
        List<TopicPartition> open = new ArrayList<>();
        settings.bounds().forEach((tp, range) -> {
            PartitionState state = new PartitionState();
            state.position = range.from();
            partitions.put(tp, state);
            if (range.size() > 0) open.add(tp);
        });
        consumer.assign(open);
        for (TopicPartition tp : open) consumer.seek(tp, settings.bounds().get(tp).from());
        assigned = Set.copyOf(partitions.keySet());
        joined = true;
        if (rangesSettled()) closing = true;
    }

    /** A bounded run: every record of the ranges settled for good (none parked below its range's end). */
    public boolean rangesSettled() {
        for (Map.Entry<TopicPartition, PartitionState> e : partitions.entrySet()) {
            if (e.getValue().frontier() < settings.bounds().get(e.getKey()).to()) return false;
        }
        return true;
    }

    /** A bounded run: records settled for good so far, over all its ranges. */
    public long boundedSettled() {
        long n = 0;
        for (Map.Entry<TopicPartition, PartitionState> e : Map.copyOf(partitions).entrySet()) {
            Range r = settings.bounds().get(e.getKey());
            n += Math.max(0, Math.min(e.getValue().frontier(), r.to()) - r.from());
        }
        return n;
    }

    /** True once the loop ended: a bounded run that settled all its ranges, a close, or a failure ({@link #rangesSettled} tells). */
    public boolean finished() {
        return stopped.getCount() == 0;
    }

    /** One turn: retry parked records if due, pause or resume, poll, apply, commit. */
    void pollOnce() {
        advanceHorizon();
        retryParkedIfDue();
        applyBackpressure();
        List<ConsumerRecord<byte[], byte[]>> polled = new ArrayList<>();
        consumer.poll(settings.pollTimeout()).forEach(polled::add);
        lastPollMillis = clock.millis();
        if (settings.isBounded()) polled = withinBounds(polled);
        handle(polled, false);
        passControlRecords();
        try {
            commit(partitions.keySet());
        } catch (CommitFailedException | RebalanceInProgressException e) {
            // The group moved on without this member (it did not poll for longer than max.poll.interval.ms: a long pause,
            // a frozen process) or is moving now. Not fatal: the next poll rejoins, the listener forgets the partitions
            // taken away, and their new owner applies the uncommitted records again (every sink write is idempotent).
            LOG.warn("{}: offset commit refused, the group rebalanced meanwhile (its records will be applied again): {}",
                    settings.processor(), e.toString());
        }
        if (settings.isBounded() && rangesSettled()) closing = true;
    }

    /**
     * Moves each partition with nothing parked up to the consumer's position. A transactional producer (Kafka Streams'
     * exactly-once output, a dead-letter redrive) ends each transaction with a control record, which poll skips
     * without handing it out: without this the committed offset stays one short of the log end after the last
     * transaction, and whoever waits for the group to reach the end (a replay, verify's settle) waits forever.
     */
    private void passControlRecords() {
        for (Map.Entry<TopicPartition, PartitionState> e : partitions.entrySet()) {
            PartitionState s = e.getValue();
            if (!s.parked.isEmpty()) continue;
            long at = positionIfKnown(e.getKey()); // known after a poll: no I/O
            if (at < 0) continue;
            if (settings.isBounded()) at = Math.min(at, settings.bounds().get(e.getKey()).to());
            s.position = Math.max(s.position, at);
        }
    }

    /** A bounded run reads no further than its ranges: records past a range's end are dropped and their partition paused. */
    private List<ConsumerRecord<byte[], byte[]>> withinBounds(List<ConsumerRecord<byte[], byte[]>> polled) {
        List<ConsumerRecord<byte[], byte[]>> in = new ArrayList<>(polled.size());
        Set<TopicPartition> past = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> r : polled) {
            TopicPartition tp = new TopicPartition(r.topic(), r.partition());
            if (r.offset() < settings.bounds().get(tp).to()) in.add(r); else past.add(tp);
        }
        if (!past.isEmpty()) {
            for (TopicPartition tp : past) {
                PartitionState s = partitions.get(tp);
                s.position = Math.max(s.position, settings.bounds().get(tp).to());
            }
            consumer.pause(past);
        }
        return in;
    }

    // ---------------------------------------------------------------- handling

    /**
     * Decodes, applies and settles records (polled, or parked ones on retry). Settling walks the
     * records in their order, so a partition's position never passes a record not yet settled.
     */
    private void handle(List<ConsumerRecord<byte[], byte[]>> raws, boolean retry) {
        if (raws.isEmpty()) return;
        Map<ConsumerRecord<byte[], byte[]>, Parked> previously = new HashMap<>();
        Map<ConsumerRecord<byte[], byte[]>, Outcomes.Fate> decodeFates = new HashMap<>();
        Map<ConsumerRecord<byte[], byte[]>, InputRecord> decoded = new HashMap<>();
        List<ConsumerRecord<byte[], byte[]>> ordered = new ArrayList<>(raws.size());
        List<InputRecord> batch = new ArrayList<>(raws.size());
        for (ConsumerRecord<byte[], byte[]> raw : raws) {
            PartitionState state = state(raw);
            if (state == null) continue; // revoked meanwhile: its new owner starts from the committed offset
            if (retry) previously.put(raw, state.parked.remove(raw.offset()));
            ordered.add(raw);
            try {
                SpecificRecord event = decoder.deserialize(raw.topic(), raw.value());
                if (event == null) {
                    decodeFates.put(raw, new Outcomes.Fate.Rejected(DeadLetters.UNDECODABLE, "empty value"));
                } else {
                    InputRecord r = new InputRecord(raw, event);
                    decoded.put(raw, r);
                    batch.add(r);
                }
            } catch (StoreUnavailableException e) {
                decodeFates.put(raw, new Outcomes.Fate.Unavailable(e.store(), e.getMessage()));
            } catch (RuntimeException e) {
                decodeFates.put(raw, new Outcomes.Fate.Rejected(DeadLetters.UNDECODABLE, e.getMessage()));
            }
        }
        Map<InputRecord, Outcomes.Fate> fates = new HashMap<>();
        apply(batch, fates);
        for (ConsumerRecord<byte[], byte[]> raw : ordered) {
            InputRecord r = decoded.get(raw);
            settle(raw, r, r == null ? decodeFates.get(raw) : fates.get(r), previously.get(raw));
        }
        refreshParkedCount();
    }

    /** Applies a batch and records each record's fate (none = applied); an unexpected exception is narrowed down to its record. */
    private void apply(List<InputRecord> batch, Map<InputRecord, Outcomes.Fate> fates) {
        if (batch.isEmpty()) return;
        Outcomes outcomes = new Outcomes();
        try {
            applyTimer.record(() -> handler.apply(batch, outcomes));
        } catch (StoreUnavailableException e) {
            for (InputRecord r : batch) fates.put(r, new Outcomes.Fate.Unavailable(e.store(), e.getMessage()));
            return;
        } catch (RuntimeException e) {
            if (batch.size() > 1) {
                for (InputRecord r : batch) apply(List.of(r), fates);
            } else {
                fates.put(batch.get(0), new Outcomes.Fate.Failed(e));
            }
            return;
        }
        for (InputRecord r : batch) {
            Outcomes.Fate f = outcomes.fateOf(r);
            if (f != null) fates.put(r, f);
        }
    }

    private void settle(ConsumerRecord<byte[], byte[]> raw, InputRecord r, Outcomes.Fate fate, Parked previously) {
        PartitionState state = state(raw);
        if (state == null) return;
        int attempts = previously == null ? 0 : previously.attempts();
        long since = previously == null ? clock.millis() : previously.since();
        if (fate == null) {
            Counter.builder("pinfeed.events.applied").description("Events applied, by processor and event type.")
                    .tag("processor", settings.processor()).tag("type", r.eventType()).register(meters).increment();
            advance(state, raw.offset());
        } else if (fate instanceof Outcomes.Fate.Rejected rej) {
            deadLetter(raw, rej.reason(), rej.detail(), state);
        } else if (fate instanceof Outcomes.Fate.Unavailable u) {
            lastOutage = u.detail();
            park(state, raw, u.store(), attempts, since);
        } else if (fate instanceof Outcomes.Fate.Deferred) {
            park(state, raw, DEFERRED, attempts, since);
        } else if (fate instanceof Outcomes.Fate.Waiting w) {
            long graceEnd = since + settings.waitGrace().toMillis();
            if (clock.millis() >= graceEnd && readAllUntil >= graceEnd && settings.upstream().readAllUntil() >= graceEnd) {
                deadLetter(raw, w.reason(), w.detail() + " (still after " + settings.waitGrace().toSeconds() + " s)", state);
            } else {
                park(state, raw, "(waiting: " + w.reason() + ")", attempts, since);
            }
        } else {
            Throwable error = ((Outcomes.Fate.Failed) fate).error();
            if (attempts + 1 >= settings.bugAttempts()) {
                LOG.error("{}: {} failed {} times, dead-lettering it", settings.processor(), r, attempts + 1, error);
                deadLetter(raw, DeadLetters.PROCESSING_ERROR, error.toString(), state);
            } else {
                LOG.warn("{}: {} failed ({}); will retry", settings.processor(), r, error.toString());
                park(state, raw, BUG, attempts, since);
            }
        }
    }

    private void deadLetter(ConsumerRecord<byte[], byte[]> raw, String reason, String error, PartitionState state) {
        deadLetters.write(raw, reason, error, () -> closing);
        advance(state, raw.offset());
    }

    private void park(PartitionState state, ConsumerRecord<byte[], byte[]> raw, String store, int attempts, long since) {
        state.parked.put(raw.offset(), new Parked(raw, store, attempts + 1, since));
        advance(state, raw.offset());
        if (nextRetryAtMillis == 0) nextRetryAtMillis = clock.millis() + retryDelayMillis;
    }

    private static void advance(PartitionState state, long offset) {
        state.position = Math.max(state.position, offset + 1);
    }

    private PartitionState state(ConsumerRecord<byte[], byte[]> raw) {
        return partitions.get(new TopicPartition(raw.topic(), raw.partition()));
    }

    // ---------------------------------------------------------------- parked records

    private void retryParkedIfDue() {
        if (parkedCount == 0 || clock.millis() < nextRetryAtMillis) return;
        List<ConsumerRecord<byte[], byte[]>> due = new ArrayList<>();
        for (PartitionState s : partitions.values()) {
            for (Parked p : s.parked.values()) {
                due.add(p.raw());
                Counter.builder("pinfeed.retries").description("Retries of records parked while a store was down, by store.")
                        .tag("processor", settings.processor()).tag("store", p.store()).register(meters).increment();
            }
        }
        int before = due.size();
        nextRetryAtMillis = 0;
        long started = clock.millis();
        handle(due, true);
        long took = clock.millis() - started;
        if (parkedCount < before) {
            retryDelayMillis = settings.retryMin().toMillis(); // progress: the store is back
        } else {
            retryDelayMillis = Math.min(retryDelayMillis * 2, settings.retryMax().toMillis());
            if (outageCount > 0) {
                LOG.warn("{}: {} records parked, a store is still down ({}); next retry in {} ms", settings.processor(), parkedCount,
                        lastOutage, retryDelayMillis);
            } else {
                LOG.debug("{}: {} records waiting for what they refer to; next retry in {} ms", settings.processor(), parkedCount,
                        retryDelayMillis);
            }
        }
        // At least as long as the round took: thousands of records waiting for their parents must not hold up the polls
        // that bring those parents in (a round after every poll once cut a backlog's reading to a trickle).
        if (parkedCount > 0) nextRetryAtMillis = clock.millis() + Math.max(retryDelayMillis, took);
    }

    /**
     * Moves {@link #readAllUntil} on. A snapshot of the log ends of the partitions being read (assigned, not paused) is
     * taken; once the consumer's positions reach it, everything in them at the snapshot's time has been read. The ends
     * are asked of the broker ({@code endOffsets}: the last stable offsets for a read_committed consumer), not taken
     * from the consumer's lag: that comes from the partition's last fetch, and a partition whose fetched records are
     * still buffered is not fetched again, so its lag can be minutes old and miss what was written since (a backlog of
     * pins behind a slow batch; their likes were dead-lettered while the pins sat unread). A snapshot is taken only
     * while records wait (nothing else reads the horizon) and at most once per {@link #HORIZON_EVERY_MS}; a broker that
     * does not answer within {@link #HORIZON_TIMEOUT} leaves it for the next turn. Paused partitions do not count: they
     * hold parked records over the budget, and waiting for them would wait forever.
     */
    private void advanceHorizon() {
        Set<TopicPartition> reading = beingRead();
        if (horizon != null && reached(horizon, reading)) {
            readAllUntil = horizonTakenAt;
            horizon = null;
        }
        long now = clock.millis();
        if (horizon != null || parkedCount == 0 || now - horizonTakenAt < HORIZON_EVERY_MS) return;
        Map<TopicPartition, Long> ends = new HashMap<>();
        if (!reading.isEmpty()) {
            try {
                consumer.endOffsets(reading, HORIZON_TIMEOUT).forEach((tp, end) -> ends.put(tp,
                        settings.isBounded() ? Math.min(end, settings.bounds().get(tp).to()) : end));
            } catch (TimeoutException brokerSlow) {
                return;
            }
        }
        horizon = ends;
        horizonTakenAt = now;
        if (reached(horizon, reading)) {
            readAllUntil = now;
            horizon = null;
        }
    }

    /** Whether the consumer's positions in the partitions being read have passed {@code ends}. */
    private boolean reached(Map<TopicPartition, Long> ends, Set<TopicPartition> reading) {
        for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
            if (reading.contains(e.getKey()) && positionIfKnown(e.getKey()) < e.getValue()) return false;
        }
        return true;
    }

    private Set<TopicPartition> beingRead() {
        Set<TopicPartition> reading = new HashSet<>(consumer.assignment());
        reading.removeAll(consumer.paused());
        return reading;
    }

    /** The consumer's position in a partition, or -1 while it would take I/O to learn (a wakeup goes on up: it stops the loop). */
    private long positionIfKnown(TopicPartition tp) {
        try {
            return consumer.position(tp, Duration.ZERO);
        } catch (TimeoutException | IllegalStateException notKnownYet) {
            return -1;
        }
    }

    /**
     * Past {@code maxParked}, pauses the partitions that hold parked records, and only those: the others
     * keep flowing, since what a parked record waits for (a pin for its likes) may well be on them.
     * Pausing everything deadlocked exactly that case: likes filled the budget, the pins they waited
     * for stayed unread, and the likes were dead-lettered after the grace. Memory stays bounded: a
     * partition that parks records is paused on the next turn (at most one poll's worth more each).
     */
    private void applyBackpressure() {
        boolean full = parkedCount >= settings.maxParked();
        Set<TopicPartition> holding = new HashSet<>();
        if (full) partitions.forEach((tp, s) -> {
            if (!s.parked.isEmpty()) holding.add(tp);
        });
        Set<TopicPartition> paused = consumer.paused();
        Set<TopicPartition> toPause = new HashSet<>(holding);
        toPause.removeAll(paused);
        Set<TopicPartition> toResume = new HashSet<>(paused);
        toResume.removeAll(holding);
        if (settings.isBounded()) toResume.removeIf(tp -> partitions.get(tp).position >= settings.bounds().get(tp).to());
        if (!toPause.isEmpty()) {
            consumer.pause(toPause);
            LOG.warn("{}: {} records parked; pausing the partitions that hold them ({}) until they drain", settings.processor(),
                    parkedCount, toPause);
        }
        if (!toResume.isEmpty()) consumer.resume(toResume);
    }

    private void refreshParkedCount() {
        int n = 0;
        int outages = 0;
        for (PartitionState s : partitions.values()) {
            n += s.parked.size();
            for (Parked p : s.parked.values()) if (!p.store().startsWith("(")) outages++;
        }
        parkedCount = n;
        outageCount = outages;
    }

    // ---------------------------------------------------------------- offsets and rebalances

    private void commit(Collection<TopicPartition> which) {
        if (settings.isBounded()) return; // no group: a bounded run leaves every group's offsets alone
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition tp : which) {
            PartitionState s = partitions.get(tp);
            if (s == null) continue;
            long frontier = s.frontier();
            if (frontier >= 0 && frontier > s.committed) offsets.put(tp, new OffsetAndMetadata(frontier));
        }
        if (offsets.isEmpty()) return;
        consumer.commitSync(offsets);
        offsets.forEach((tp, o) -> partitions.get(tp).committed = o.offset());
    }

    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> revoked) {
            try {
                commit(revoked); // hand over exactly what was settled
            } catch (RuntimeException e) {
                LOG.warn("{}: commit on revocation failed: {}", settings.processor(), e.toString());
            }
            revoked.forEach(partitions::remove);
            assigned = Set.copyOf(partitions.keySet());
            refreshParkedCount();
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> lost) {
            lost.forEach(partitions::remove);
            assigned = Set.copyOf(partitions.keySet());
            refreshParkedCount();
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> newlyAssigned) {
            for (TopicPartition tp : newlyAssigned) partitions.putIfAbsent(tp, new PartitionState());
            assigned = Set.copyOf(partitions.keySet());
            joined = true;
        }
    }

    // ---------------------------------------------------------------- health

    /** Live: the loop runs and has polled recently (a wedged loop stops polling). */
    public boolean live() {
        return running && clock.millis() - lastPollMillis < settings.stallLimit().toMillis();
    }

    /** Ready: live and a member of its group with its partitions assigned. */
    public boolean ready() {
        return live() && joined;
    }

    /**
     * Why the loop is not {@link #ready} (empty when it is): not a member of its group yet, or no poll for its stall limit,
     * which is one batch taking that long (a handler's stores slow under load) as much as a wedged loop.
     */
    public Optional<String> notReady() {
        if (!joined) return Optional.of("not yet a member of group " + settings.groupId());
        if (live()) return Optional.empty();
        if (!running) return Optional.of("the consumer loop of group " + settings.groupId() + " has stopped");
        return Optional.of("the consumer loop has not polled for " + (clock.millis() - lastPollMillis) / 1000 + " s (limit "
                + settings.stallLimit().toSeconds() + " s): one batch taking that long, or a wedged loop");
    }

    public int parkedCount() {
        return parkedCount;
    }

    /** Records parked because a store is down (not those waiting for a reference, nor bug retries). */
    public int parkedForOutage() {
        return outageCount;
    }

    /** The last store outage that parked a record (empty when none). */
    public String lastOutage() {
        return lastOutage;
    }

    public Set<TopicPartition> assignment() {
        return assigned;
    }

    /** Stops after the batch in hand, commits what was settled, and waits up to 30 s for that. */
    @Override
    public void close() {
        closing = true;
        if (!running) {
            if (stopped.getCount() > 0) consumer.close();
            return;
        }
        consumer.wakeup();
        try {
            if (!stopped.await(30, TimeUnit.SECONDS)) LOG.warn("{}: the consumer loop did not stop within 30 s", settings.processor());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
