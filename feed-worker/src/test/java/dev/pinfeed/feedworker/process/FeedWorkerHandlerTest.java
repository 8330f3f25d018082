package dev.pinfeed.feedworker.process;

import dev.pinfeed.feedstore.MutableClock;
import static dev.pinfeed.feedworker.Events.add;
import static dev.pinfeed.feedworker.Events.followedBoard;
import static dev.pinfeed.feedworker.Events.followedUser;
import static dev.pinfeed.feedworker.Events.liked;
import static dev.pinfeed.feedworker.Events.receiver;
import static dev.pinfeed.feedworker.Events.remove;
import static dev.pinfeed.feedworker.Events.unfollowedUser;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.canonicalstore.reads.InMemoryCanonicalReads;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.feedstore.InMemoryMaterializedFeedStore;
import dev.pinfeed.feedstore.InMemoryPoolStore;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedworker.CanonicalPins;
import dev.pinfeed.feedworker.WatchedBackfillReads;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedworker.AffinityStore;
import dev.pinfeed.feedworker.FeedWorker;
import dev.pinfeed.feedworker.FlakyPoolStore;
import dev.pinfeed.feedworker.InMemoryAffinityStore;
import dev.pinfeed.feedstore.scoring.PinFacts;
import dev.pinfeed.feedstore.scoring.WeightedScorer;
import dev.pinfeed.feedworker.WorkerMetrics;
import dev.pinfeed.feedworker.WorkerSettings;
import dev.pinfeed.feedworker.canonical.CanonicalReadsPins;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.sharded.InMemoryGraphStore;
import dev.pinfeed.processorruntime.ConsumerLoop;
import dev.pinfeed.processorruntime.DeadLetterWriter;
import dev.pinfeed.processorruntime.LoopDriver;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The handler on the real {@link ConsumerLoop} over Kafka's MockConsumer, one poll at a time: records
 * parked while a store is down or while they wait keep the later records of their key behind them, so
 * the worker's effects follow the log's order; offsets never pass a parked record.
 */
class FeedWorkerHandlerTest {

    private static final long T0 = 1_780_000_000_000L;
    private static final TopicPartition FANOUT = new TopicPartition(EventTopics.FANOUT, 0);
    private static final TopicPartition FOLLOWS = new TopicPartition(EventTopics.FOLLOWS, 0);
    private static final TopicPartition LIKES = new TopicPartition(EventTopics.LIKES, 0);

    private final MutableClock clock = new MutableClock(T0);
    private final FlakyPoolStore pools = new FlakyPoolStore(new InMemoryPoolStore());
    private final InMemoryGraphStore graph = new InMemoryGraphStore();
    private final InMemoryCanonicalReads canonical = new InMemoryCanonicalReads();
    private final InMemoryAffinityStore affinity = new InMemoryAffinityStore();
    private final MockProducer<byte[], byte[]> dlq = new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final List<SpecificRecord> sent = new ArrayList<>();
    private final Map<TopicPartition, Long> nextOffset = new HashMap<>();
    private MockConsumer<byte[], byte[]> consumer;
    private ConsumerLoop loop;
    private FeedWorkerHandler handler;

    /** How long each backfill read takes (the clock moves by it). */
    private Duration backfillReadTakes = Duration.ZERO;

    /** Record values are indexes into {@link #sent}. */
    private final Deserializer<SpecificRecord> decoder = (topic, data) -> sent.get(Integer.parseInt(new String(data, StandardCharsets.UTF_8)));

    @BeforeEach
    void start() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        CanonicalPins reads = WatchedBackfillReads.of(new CanonicalReadsPins(canonical), (method, args) -> clock.advance(backfillReadTakes));
        FeedWorker worker = new FeedWorker(pools, new InMemoryMaterializedFeedStore(), graph, reads, affinity,
                new WeightedScorer(WeightedScorer.Settings.defaults(), clock), WorkerSettings.defaults(), clock, new WorkerMetrics(meters));
        handler = new FeedWorkerHandler(worker, clock);
        consumer = new MockConsumer<>("earliest");
        ConsumerLoop.Settings settings = ConsumerLoop.Settings.of("feed-worker", "g", List.of(EventTopics.FANOUT, EventTopics.FOLLOWS, EventTopics.LIKES))
                .withRetry(Duration.ofSeconds(1), Duration.ofSeconds(1)).withWaitGrace(Duration.ofMinutes(10));
        loop = new ConsumerLoop(consumer, decoder, handler, new DeadLetterWriter(dlq, DeadLetters.TOPIC, "g", "feed-worker", meters),
                settings, clock, meters);
        LoopDriver.subscribe(loop);
        consumer.updateBeginningOffsets(Map.of(FANOUT, 0L, FOLLOWS, 0L, LIKES, 0L));
        consumer.updateEndOffsets(Map.of(FANOUT, 0L, FOLLOWS, 0L, LIKES, 0L));
        consumer.rebalance(List.of(FANOUT, FOLLOWS, LIKES));
    }

    private void send(TopicPartition tp, SpecificRecord event) {
        long offset = nextOffset.merge(tp, 1L, Long::sum) - 1;
        sent.add(event);
        consumer.addRecord(new ConsumerRecord<>(tp.topic(), tp.partition(), offset, EventTopics.partitionKey(event).getBytes(StandardCharsets.UTF_8),
                Integer.toString(sent.size() - 1).getBytes(StandardCharsets.UTF_8)));
        consumer.updateEndOffsets(Map.of(tp, offset + 1));
    }

    private void poll() {
        LoopDriver.pollOnce(loop);
    }

    /** Past the loop's retry delay, then a poll: the parked records are retried in offset order. */
    private void retry() {
        clock.advance(Duration.ofSeconds(2));
        poll();
    }

    private long committed(TopicPartition tp) {
        var c = consumer.committed(Set.of(tp)).get(tp);
        return c == null ? 0 : c.offset();
    }

    private List<Long> pool(long user) {
        return pools.all(user).stream().map(PoolEntry::pinId).toList();
    }

    @Test
    void followsPastTheBatchsTimeWaitForTheNextTurnTheirKeysLaterRecordsBehindThem() {
        canonical.pin(1, 501, 10, "pin 1", null, null, T0 - 1_000);
        backfillReadTakes = Duration.ofSeconds(6); // each board follow's backfill: the batch's 15 s run out after three
        for (long f = 1; f <= 5; f++) send(FOLLOWS, followedBoard(f, 501, 10, T0));
        poll();
        assertThat(pool(3)).containsExactly(1L);
        assertThat(pool(4)).isEmpty();
        assertThat(committed(FOLLOWS)).isEqualTo(3);
        assertThat(loop.parkedCount()).isEqualTo(2);
        assertThat(loop.parkedForOutage()).isZero();

        send(FOLLOWS, followedBoard(5, 501, 10, T0 + 1)); // follower 5's next event: behind his deferred follow
        poll();
        assertThat(loop.parkedCount()).isEqualTo(3);

        backfillReadTakes = Duration.ZERO;
        retry();
        assertThat(pool(4)).containsExactly(1L);
        assertThat(pool(5)).containsExactly(1L);
        assertThat(loop.parkedCount()).isZero();
        assertThat(committed(FOLLOWS)).isEqualTo(6);
        assertThat(dlq.history()).isEmpty();
    }

    @Test
    void aDeleteWaitsBehindItsPinsParkedAddInsteadOfBeingUndoneByItsRetry() {
        PinFacts p = new PinFacts(1, 501, 10, T0);
        PinFacts q = new PinFacts(2, 501, 10, T0);
        var to = List.of(receiver(7, Source.FOLLOWED_USER));
        pools.down = true;
        send(FANOUT, add(p, T0, to));
        poll();
        assertThat(loop.parkedForOutage()).isEqualTo(1);

        pools.down = false; // back before the parked add's retry is due
        send(FANOUT, remove(p, T0 + 1, to));
        send(FANOUT, add(q, T0, to)); // another pin: nothing holds it back
        poll();
        assertThat(pool(7)).containsExactly(2L);
        assertThat(loop.parkedCount()).as("the delete waits behind the add").isEqualTo(2);
        assertThat(committed(FANOUT)).as("nothing committed past the parked add").isZero();

        retry();
        assertThat(pool(7)).containsExactly(2L);
        assertThat(loop.parkedCount()).isZero();
        assertThat(handler.parkedCount()).isZero();
        assertThat(committed(FANOUT)).isEqualTo(3);
    }

    @Test
    void anUnfollowWaitsBehindItsFollowUntilTheGraphShowsBothThenPurges() {
        graph.apply(new GraphCommand.CreateBoard(1, T0, 501, 10));
        canonical.pin(1, 501, 10, "pin", null, null, T0);
        send(FOLLOWS, followedUser(7, 10, T0));
        poll();
        assertThat(loop.parkedCount()).as("the graph does not show the follow yet").isEqualTo(1);
        assertThat(loop.parkedForOutage()).as("waiting is no outage").isZero();

        send(FOLLOWS, unfollowedUser(7, 10, T0 + 1));
        poll();
        assertThat(loop.parkedCount()).isEqualTo(2);

        graph.apply(new GraphCommand.FollowUser(2, T0, 7, 10));
        graph.apply(new GraphCommand.UnfollowUser(3, T0 + 1, 7, 10));
        retry();
        assertThat(pool(7)).isEmpty();
        assertThat(loop.parkedCount()).isZero();
        assertThat(committed(FOLLOWS)).isEqualTo(2);
        assertThat(dlq.history()).isEmpty();
    }

    @Test
    void aRecordThatWaitsTooLongIsDeadLetteredAndTheNextOfItsKeyThenRuns() {
        send(LIKES, liked(1, 99, T0));
        poll();
        send(LIKES, liked(2, 99, T0 + 1));
        poll();
        assertThat(loop.parkedCount()).isEqualTo(2);

        clock.advance(WorkerSettings.defaults().waitGrace());
        poll();
        assertThat(dlq.history()).hasSize(1);
        assertThat(new String(dlq.history().get(0).headers().lastHeader(DeadLetters.HEADER_REASON).value(), StandardCharsets.UTF_8))
                .isEqualTo(DeadLetters.MISSING_REFERENCE);
        assertThat(committed(LIKES)).isEqualTo(1);
        assertThat(loop.parkedCount()).as("the second like waits on its own now").isEqualTo(1);

        canonical.pin(99, 501, 10, "pin", null, null, T0);
        retry();
        assertThat(loop.parkedCount()).isZero();
        assertThat(committed(LIKES)).isEqualTo(2);
        assertThat(affinity.affinities(List.of(new AffinityStore.Pair(2, 10)))).containsValue(1L);
        assertThat(affinity.affinities(List.of(new AffinityStore.Pair(1, 10)))).containsValue(0L);
    }
}
