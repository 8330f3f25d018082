package dev.pinfeed.processorruntime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.config.StoreUnavailableException;
import dev.pinfeed.events.UserCreated;
import dev.pinfeed.eventsschema.DeadLetters;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.Test;

/**
 * The loop's settling and commit rules over Kafka's own MockConsumer/MockProducer, driven one
 * iteration at a time: each {@link #iterate()} runs the loop until its next poll, then stops it.
 * Record values name what the test handler does with them: {@code ok:<store>}, {@code bad} (not
 * decodable), {@code reject}, {@code bug} (throws), {@code registry-down} (decoding hits an outage).
 */
class ConsumerLoopTest {

    private static final String TOPIC = "t";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
    private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);

    private final MutableClock clock = new MutableClock();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final MockProducer<byte[], byte[]> dlq = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final Set<String> downStores = new HashSet<>();
    private final List<Long> applied = new CopyOnWriteArrayList<>();
    private final AtomicInteger bugCalls = new AtomicInteger();
    private boolean registryDown;
    private final Set<String> arrived = new HashSet<>();
    private MockConsumer<byte[], byte[]> consumer;
    private ConsumerLoop loop;

    /** Decodes "x" to an event whose userId is the offset, failing as the value says. */
    private final Deserializer<SpecificRecord> decoder = (topic, data) -> {
        String v = new String(data, StandardCharsets.UTF_8);
        if (v.equals("bad")) throw new SerializationException("not Confluent wire format");
        if (v.equals("registry-down") && registryDown) throw new StoreUnavailableException("schema-registry", "refused");
        return new UserCreated(1L, Instant.EPOCH, 1L, 0L, v.replace(':', '_'), null);
    };

    /** Whether the handler defers its "slow" records (its time for the poll spent). */
    private volatile boolean outOfTime;

    private final BatchHandler handler = (records, outcomes) -> {
        for (InputRecord r : records) {
            String v = new String(r.raw().value(), StandardCharsets.UTF_8);
            if (v.equals("reject")) {
                outcomes.reject(r, DeadLetters.INVALID, "breaks a rule");
            } else if (v.equals("bug")) {
                bugCalls.incrementAndGet();
                throw new NullPointerException("a bug");
            } else if (v.startsWith("needs:") && !arrived.contains(v.substring(6))) {
                outcomes.waitFor(r, DeadLetters.MISSING_REFERENCE, "board " + v.substring(6) + " does not exist");
            } else if (v.equals("slow") && outOfTime) {
                outcomes.defer(r, "the handler's time for this poll ran out");
            } else if (v.startsWith("ok:") && downStores.contains(v.substring(3))) {
                outcomes.unavailable(r, new StoreUnavailableException(v.substring(3), "connection refused"));
            } else {
                applied.add(r.offset() + r.partition() * 1000L);
            }
        }
    };

    /** The next commit fails as Kafka's does for a member the group rebalanced without. */
    private boolean commitRefused;

    /** What the loop's upstream ({@link ConsumerLoop.Settings#withUpstream}) answers: caught up unless a test says otherwise. */
    private volatile long upstreamReadAllUntil = Long.MAX_VALUE;

    private void start(int maxParked) {
        consumer = new MockConsumer<>(OffsetResetStrategy.EARLIEST) {
            @Override
            public synchronized void commitSync(Map<TopicPartition, org.apache.kafka.clients.consumer.OffsetAndMetadata> offsets) {
                if (commitRefused) {
                    commitRefused = false;
                    throw new org.apache.kafka.clients.consumer.CommitFailedException();
                }
                super.commitSync(offsets);
            }

            /** As a real consumer's can be: from the partition's last fetch, which a buffered one leaves unrefreshed. */
            @Override
            public synchronized OptionalLong currentLag(TopicPartition tp) {
                return OptionalLong.of(0);
            }
        };
        ConsumerLoop.Settings settings = ConsumerLoop.Settings.of("test", "g", List.of(TOPIC)).withMaxParked(maxParked)
                .withRetry(Duration.ofSeconds(1), Duration.ofSeconds(8)).withUpstream(() -> upstreamReadAllUntil);
        loop = new ConsumerLoop(consumer, decoder, handler, new DeadLetterWriter(dlq, DeadLetters.TOPIC, "g", "test", meters),
                settings, clock, meters);
        loop.subscribe();
        consumer.updateBeginningOffsets(Map.of(P0, 0L, P1, 0L));
        consumer.updateEndOffsets(Map.of(P0, 0L, P1, 0L));
        consumer.rebalance(List.of(P0, P1));
    }

    private final Map<TopicPartition, Long> nextOffset = new HashMap<>();

    private void add(TopicPartition tp, String... values) {
        for (String v : values) {
            long offset = nextOffset.merge(tp, 1L, Long::sum) - 1;
            consumer.addRecord(new ConsumerRecord<>(tp.topic(), tp.partition(), offset, new byte[0], v.getBytes(StandardCharsets.UTF_8)));
        }
        consumer.updateEndOffsets(Map.of(tp, nextOffset.get(tp)));
    }

    /** Runs {@code polls} turns of the loop. */
    private void iterate(int polls) {
        for (int i = 0; i < polls; i++) loop.pollOnce();
    }

    private long committed(TopicPartition tp) {
        var c = consumer.committed(Set.of(tp)).get(tp);
        return c == null ? -1 : c.offset();
    }

    private List<ProducerRecord<byte[], byte[]>> deadLetters() {
        return dlq.history();
    }

    private static String header(ProducerRecord<byte[], byte[]> r, String name) {
        return new String(r.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    @Test
    void notReadyNamesWhyItIsNot() {
        ConsumerLoop unassigned = new ConsumerLoop(new MockConsumer<>(OffsetResetStrategy.EARLIEST), decoder, handler,
                new DeadLetterWriter(dlq, DeadLetters.TOPIC, "g", "test", meters), ConsumerLoop.Settings.of("test", "g", List.of(TOPIC)), clock, meters);
        unassigned.subscribe();
        assertThat(unassigned.notReady()).hasValue("not yet a member of group g");
        start(10); // its partitions assigned
        iterate(1);
        assertThat(loop.ready()).isTrue();
        assertThat(loop.notReady()).isEmpty();
        clock.advance(Duration.ofSeconds(75)); // one batch's handler still busy: no poll for longer than the stall limit
        assertThat(loop.ready()).isFalse();
        assertThat(loop.notReady()).hasValue("the consumer loop has not polled for 75 s (limit 60 s): one batch taking that long, or a wedged loop");
        iterate(1);
        assertThat(loop.notReady()).isEmpty();
    }

    @Test
    void appliesInOrderAndCommitsAfterThem() {
        runScenario(() -> {
            add(P0, "ok:a", "ok:a", "ok:b");
            add(P1, "ok:a");
        }, 2);
        assertThat(applied).containsExactlyInAnyOrder(0L, 1L, 2L, 1000L);
        assertThat(committed(P0)).isEqualTo(3);
        assertThat(committed(P1)).isEqualTo(1);
        assertThat(meters.get("pinfeed.events.applied").tag("type", "UserCreated").counter().count()).isEqualTo(4);
    }

    @Test
    void theCommitPassesATransactionsControlRecordThatPollSkips() {
        runScenario(() -> add(P0, "ok:a", "ok:a"), 1);
        assertThat(committed(P0)).isEqualTo(2);
        consumer.seek(P0, 3); // as poll does past the commit marker at offset 2
        iterate(1);
        assertThat(committed(P0)).as("the log end, marker included").isEqualTo(3);
    }

    @Test
    void undecodableAndRejectedRecordsGoToTheDeadLetterTopicWithTheirReasonAndThePipelineGoesOn() {
        runScenario(() -> add(P0, "ok:a", "bad", "reject", "ok:a"), 2);
        assertThat(applied).containsExactly(0L, 3L);
        assertThat(deadLetters()).hasSize(2);
        assertThat(header(deadLetters().get(0), DeadLetters.HEADER_REASON)).isEqualTo(DeadLetters.UNDECODABLE);
        assertThat(header(deadLetters().get(0), DeadLetters.HEADER_SOURCE_OFFSET)).isEqualTo("1");
        assertThat(header(deadLetters().get(1), DeadLetters.HEADER_REASON)).isEqualTo(DeadLetters.INVALID);
        assertThat(header(deadLetters().get(1), DeadLetters.HEADER_CONSUMER)).isEqualTo("g");
        assertThat(committed(P0)).isEqualTo(4);
    }

    @Test
    void aDownStoreParksOnlyItsRecordsAndOffsetsStopBeforeTheFirstParkedOneUntilItIsBack() {
        downStores.add("b");
        start(100);
        add(P0, "ok:a", "ok:b", "ok:a", "ok:a");
        add(P1, "ok:a", "ok:a");
        iterate(2);
        assertThat(applied).containsExactlyInAnyOrder(0L, 2L, 3L, 1000L, 1001L);
        assertThat(loop.parkedCount()).isEqualTo(1);
        assertThat(committed(P0)).as("never past the parked record").isEqualTo(1);
        assertThat(committed(P1)).isEqualTo(2);

        clock.advance(Duration.ofMillis(1500)); // due, but still down: parked again, backoff doubles
        iterate(1);
        assertThat(loop.parkedCount()).isEqualTo(1);
        assertThat(meters.get("pinfeed.retries").tag("store", "b").counter().count()).isEqualTo(1);

        downStores.clear();
        clock.advance(Duration.ofMillis(1500)); // not yet due (2 s backoff)
        iterate(1);
        assertThat(loop.parkedCount()).isEqualTo(1);
        clock.advance(Duration.ofMillis(600));
        iterate(1);
        assertThat(loop.parkedCount()).isZero();
        assertThat(applied).contains(1L);
        assertThat(committed(P0)).isEqualTo(4);
    }

    @Test
    void deferredRecordsAreRetriedOnLaterTurnsAndNeverDeadLetteredForIt() {
        outOfTime = true;
        start(100);
        add(P0, "ok:a", "slow", "slow");
        add(P1, "ok:a");
        iterate(1);
        assertThat(applied).containsExactlyInAnyOrder(0L, 1000L);
        assertThat(loop.parkedCount()).isEqualTo(2);
        assertThat(loop.parkedForOutage()).as("not a store outage: readiness stays up").isZero();
        assertThat(committed(P0)).as("never past a deferred record").isEqualTo(1);

        for (int turn = 0; turn < 5; turn++) { // far past any waiting record's grace
            clock.advance(Duration.ofMinutes(2));
            iterate(1);
        }
        assertThat(deadLetters()).isEmpty();
        assertThat(loop.parkedCount()).isEqualTo(2);
        assertThat(meters.get("pinfeed.retries").tag("store", ConsumerLoop.DEFERRED).counter().count()).isEqualTo(10);

        outOfTime = false;
        clock.advance(Duration.ofSeconds(10));
        iterate(1);
        assertThat(applied).contains(1L, 2L);
        assertThat(loop.parkedCount()).isZero();
        assertThat(committed(P0)).isEqualTo(3);
    }

    @Test
    void tooManyParkedRecordsPauseTheirPartitionsUntilTheyDrain_theOthersGoOn() {
        downStores.add("b");
        start(2);
        add(P0, "ok:b", "ok:b", "ok:a");
        iterate(2);
        assertThat(loop.parkedCount()).isEqualTo(2);
        assertThat(consumer.paused()).containsExactly(P0);
        add(P1, "ok:c", "ok:d");
        iterate(2);
        assertThat(applied).as("P1 still consumed").contains(1000L, 1001L);
        assertThat(committed(P1)).isEqualTo(2);

        downStores.clear();
        clock.advance(Duration.ofSeconds(2));
        iterate(2);
        assertThat(loop.parkedCount()).isZero();
        assertThat(consumer.paused()).isEmpty();
        assertThat(committed(P0)).isEqualTo(3);
    }

    @Test
    void recordsWaitingForAReferenceBeyondTheBudgetDoNotStopTheTopicThatCarriesIt() {
        start(2);
        add(P0, "needs:x", "needs:x", "needs:x");
        iterate(2);
        assertThat(consumer.paused()).containsExactly(P0);
        add(P1, "ok:x");
        iterate(1);
        arrived.add("x"); // what the P1 record created
        clock.advance(Duration.ofSeconds(2));
        iterate(2);
        assertThat(loop.parkedCount()).isZero();
        assertThat(applied).contains(0L, 1L, 2L, 1000L);
        assertThat(consumer.paused()).isEmpty();
        assertThat(deadLetters()).isEmpty();
    }

    @Test
    void aRecordThatKeepsThrowingIsRetriedThenDeadLetteredWhileTheOthersApply() {
        start(100);
        add(P0, "ok:a", "bug", "ok:a");
        iterate(2);
        // Record 0 may apply twice (the batch is re-run one by one to find the culprit): writes are idempotent.
        assertThat(applied).contains(0L, 2L).doesNotContain(1L);
        assertThat(committed(P0)).isEqualTo(1);
        for (int i = 0; i < 3; i++) {
            clock.advance(Duration.ofSeconds(10));
            iterate(1);
        }
        assertThat(deadLetters()).hasSize(1);
        assertThat(header(deadLetters().get(0), DeadLetters.HEADER_REASON)).isEqualTo(DeadLetters.PROCESSING_ERROR);
        assertThat(bugCalls.get()).isGreaterThanOrEqualTo(3);
        assertThat(committed(P0)).isEqualTo(3);
    }

    @Test
    void aRecordWaitingForItsParentAppliesWhenItArrivesOrIsDeadLetteredAfterTheGrace() {
        start(100);
        add(P0, "needs:b1", "needs:b2", "ok:a");
        iterate(1);
        assertThat(loop.parkedCount()).isEqualTo(2);
        assertThat(loop.parkedForOutage()).as("waiting is not an outage").isZero();
        assertThat(committed(P0)).isEqualTo(0);
        arrived.add("b1");
        clock.advance(Duration.ofSeconds(2));
        iterate(1);
        assertThat(applied).contains(0L);
        assertThat(committed(P0)).isEqualTo(1);
        clock.advance(Duration.ofSeconds(61));
        iterate(1);
        assertThat(deadLetters()).hasSize(1);
        assertThat(header(deadLetters().get(0), DeadLetters.HEADER_REASON)).isEqualTo(DeadLetters.MISSING_REFERENCE);
        assertThat(header(deadLetters().get(0), DeadLetters.HEADER_SOURCE_OFFSET)).isEqualTo("1");
        assertThat(committed(P0)).isEqualTo(3);
    }

    @Test
    void aRecordWaitingForAParentIsNotDeadLetteredWhileRecordsThatWereThereWhenItsGraceRanOutAreStillUnread() {
        start(100);
        add(P0, "needs:x", "needs:y");
        consumer.updateEndOffsets(Map.of(P1, 3L)); // P1 holds three records the loop has not read yet (its lag says 0)
        iterate(1);
        clock.advance(Duration.ofSeconds(61));
        iterate(1);
        clock.advance(Duration.ofSeconds(10));
        iterate(1);
        assertThat(deadLetters()).as("past the grace, but the parent may be among P1's unread records").isEmpty();
        assertThat(loop.parkedCount()).isEqualTo(2);

        add(P1, "ok:a", "ok:x", "ok:b"); // the backlog is read: it holds x, not y
        arrived.add("x");
        iterate(1);
        clock.advance(Duration.ofSeconds(10));
        iterate(1);
        assertThat(applied).contains(0L, 1000L, 1001L, 1002L);
        assertThat(deadLetters()).hasSize(1);
        assertThat(header(deadLetters().get(0), DeadLetters.HEADER_SOURCE_OFFSET)).isEqualTo("1");
        assertThat(committed(P0)).isEqualTo(2);
    }

    @Test
    void aRecordWaitingForAParentIsNotDeadLetteredWhileTheProcessorThatWritesItHasNotAppliedWhatItsTopicsHeldWhenTheGraceRanOut() {
        upstreamReadAllUntil = Long.MIN_VALUE;
        start(100);
        add(P0, "needs:x");
        iterate(1);
        long graceEnd = clock.millis() + 60_000;
        clock.advance(Duration.ofSeconds(61));
        iterate(1);
        upstreamReadAllUntil = graceEnd - 1; // the materializer has applied its topics only up to just before the grace's end
        clock.advance(Duration.ofSeconds(10));
        iterate(1);
        assertThat(deadLetters()).as("x may still be in the upstream's backlog").isEmpty();
        assertThat(loop.parkedCount()).isEqualTo(1);

        upstreamReadAllUntil = graceEnd;
        clock.advance(Duration.ofSeconds(10));
        iterate(1);
        assertThat(deadLetters()).hasSize(1);
        assertThat(committed(P0)).isEqualTo(1);
    }

    @Test
    void aRegistryOutageWhileDecodingParksTheRecordInsteadOfDeadLetteringIt() {
        registryDown = true;
        start(100);
        add(P0, "registry-down", "ok:a");
        iterate(2);
        assertThat(deadLetters()).isEmpty();
        assertThat(loop.parkedCount()).isEqualTo(1);
        assertThat(committed(P0)).isEqualTo(0);
        registryDown = false;
        clock.advance(Duration.ofSeconds(2));
        iterate(1);
        assertThat(loop.parkedCount()).isZero();
        assertThat(committed(P0)).isEqualTo(2);
    }

    @Test
    void aCommitRefusedBecauseTheGroupRebalancedMeanwhileDoesNotStopTheLoop() {
        start(100);
        add(P0, "ok:a", "ok:a");
        commitRefused = true; // e.g. the process was frozen past max.poll.interval.ms
        iterate(1);
        assertThat(committed(P0)).isEqualTo(-1);
        add(P0, "ok:a");
        iterate(1);
        assertThat(applied).containsExactly(0L, 1L, 2L);
        assertThat(committed(P0)).isEqualTo(3);
    }

    @Test
    void revocationCommitsWhatWasSettledAndForgetsParkedRecords() {
        downStores.add("b");
        start(100);
        add(P0, "ok:a", "ok:b", "ok:a");
        iterate(2);
        assertThat(committed(P0)).isEqualTo(1);
        consumer.schedulePollTask(() -> consumer.rebalance(List.of(P1)));
        iterate(1);
        assertThat(loop.parkedCount()).as("the new owner replays from the committed offset").isZero();
        assertThat(loop.assignment()).containsExactly(P1);
    }

    private void runScenario(Runnable records, int polls) {
        start(100);
        records.run();
        iterate(polls);
    }

    /** A clock the test moves. */
    static final class MutableClock extends Clock {
        private Instant now = Instant.parse("2026-11-24T00:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

}
