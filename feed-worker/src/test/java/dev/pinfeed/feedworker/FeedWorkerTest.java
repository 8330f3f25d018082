package dev.pinfeed.feedworker;

import dev.pinfeed.feedstore.MutableClock;
import dev.pinfeed.feedstore.scoring.Candidate;
import dev.pinfeed.feedstore.scoring.PinFacts;
import dev.pinfeed.feedstore.scoring.WeightedScorer;
import static dev.pinfeed.feedworker.Events.add;
import static dev.pinfeed.feedworker.Events.followedBoard;
import static dev.pinfeed.feedworker.Events.followedUser;
import static dev.pinfeed.feedworker.Events.liked;
import static dev.pinfeed.feedworker.Events.receiver;
import static dev.pinfeed.feedworker.Events.remove;
import static dev.pinfeed.feedworker.Events.unfollowedBoard;
import static dev.pinfeed.feedworker.Events.unfollowedUser;
import static dev.pinfeed.feedworker.Events.unliked;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.eventsschema.EventTopics;
import dev.pinfeed.canonicalstore.reads.InMemoryCanonicalReads;
import dev.pinfeed.feedstore.Chunk;
import dev.pinfeed.feedstore.FeedItem;
import dev.pinfeed.feedstore.InMemoryMaterializedFeedStore;
import dev.pinfeed.feedstore.InMemoryPoolStore;
import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.events.FanoutReceiver;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedworker.canonical.CanonicalReadsPins;
import dev.pinfeed.followergraph.GraphCommand;
import dev.pinfeed.followergraph.sharded.InMemoryGraphStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/** Each event type's effect on pools, feeds and affinities, over the in-memory stores. */
class FeedWorkerTest {

    private static final long T0 = 1_780_000_000_000L;
    private static final long HOUR = Duration.ofHours(1).toMillis();
    private static final AtomicLong GRAPH_EVENTS = new AtomicLong(1);

    private final MutableClock clock = new MutableClock(T0);
    private final FlakyPoolStore pools = new FlakyPoolStore(new InMemoryPoolStore());
    private final InMemoryMaterializedFeedStore feeds = new InMemoryMaterializedFeedStore();
    private final InMemoryGraphStore graph = new InMemoryGraphStore();
    private final InMemoryCanonicalReads canonical = new InMemoryCanonicalReads();
    private final InMemoryAffinityStore affinity = new InMemoryAffinityStore();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final WeightedScorer scorer = new WeightedScorer(WeightedScorer.Settings.defaults(), clock);
    private FeedWorker worker = worker(WorkerSettings.defaults());

    private FeedWorker worker(WorkerSettings settings) {
        return new FeedWorker(pools, feeds, graph, new CanonicalReadsPins(canonical), affinity, scorer, settings, clock, new WorkerMetrics(meters));
    }

    private List<Verdict> apply(SpecificRecord... events) {
        return worker.apply(Arrays.stream(events).map(e -> new FeedWorker.Item(key(e), e, -1)).toList());
    }

    private Verdict applyWaiting(SpecificRecord event, long waitingSince) {
        return worker.apply(List.of(new FeedWorker.Item(key(event), event, waitingSince))).get(0);
    }

    private static String key(SpecificRecord e) {
        return EventTopics.topicFor(e) + "/" + EventTopics.partitionKey(e);
    }

    private static PinFacts pin(long id, long board, long author, long createdAt) {
        return new PinFacts(id, board, author, createdAt);
    }

    /** The pin as the canonical store knows it. */
    private PinFacts known(PinFacts p) {
        canonical.pin(p.pinId(), p.boardId(), p.authorId(), "pin " + p.pinId(), null, null, p.createdAtMillis());
        return p;
    }

    /** The pin, known to the canonical store, liked by {@code n} users. */
    private PinFacts withLikes(PinFacts p, int n) {
        known(p);
        for (int i = 0; i < n; i++) canonical.like(900_000 + i, p.pinId(), T0, true);
        return p;
    }

    private List<Long> best(long user, Source source) {
        return pools.best(user, source, 100).stream().map(PoolEntry::pinId).toList();
    }

    private List<Long> feed(long user) {
        return feeds.all(user).stream().map(p -> p.item().pinId()).toList();
    }

    private void graph(GraphCommand... commands) {
        for (GraphCommand c : commands) graph.apply(c);
    }

    private static long gid() {
        return GRAPH_EVENTS.incrementAndGet();
    }

    private double counter(String name, String tag, String value) {
        return meters.get(name).tag(tag, value).counter().count();
    }

    private static void assertAllApplied(List<Verdict> verdicts) {
        assertThat(verdicts).allSatisfy(v -> assertThat(v.kind()).isEqualTo(Verdict.Kind.APPLIED));
    }

    @Test
    void anAddedPinIsScoredForEachReceiverIntoThePoolOfHisSource() {
        PinFacts p = withLikes(pin(1001, 501, 10, T0 - HOUR), 4);
        assertAllApplied(apply(add(p, T0, List.of(receiver(1, Source.FOLLOWED_USER), receiver(2, Source.FOLLOWED_BOARD)))));

        double forOne = scorer.score(new Candidate(1, Source.FOLLOWED_USER, p, 0, 4));
        assertThat(pools.best(1, Source.FOLLOWED_USER, 10)).containsExactly(new PoolEntry(1, Source.FOLLOWED_USER, forOne, 1001, 10, 501, T0 - HOUR));
        assertThat(pools.best(1, Source.FOLLOWED_BOARD, 10)).isEmpty();
        assertThat(best(2, Source.FOLLOWED_BOARD)).containsExactly(1001L);
        assertThat(counter("feed.worker.pool.writes", "source", "followed_user")).isEqualTo(1);
        assertThat(counter("feed.worker.pool.writes", "source", "followed_board")).isEqualTo(1);
        assertThat(meters.get("feed.worker.score").tag("source", "followed_user").summary().max()).isEqualTo(forOne);
    }

    @Test
    void aRepinGoesIntoTheRepinsPoolOfEveryReceiverWhateverHisSource() {
        PinFacts p = pin(1001, 501, 10, T0 - HOUR);
        FanoutChunk repin = add(p, T0, List.of(receiver(1, Source.FOLLOWED_USER), receiver(2, Source.FOLLOWED_BOARD)));
        repin.setParentPinId(900L);
        assertAllApplied(apply(repin));

        double forOne = scorer.score(new Candidate(1, Source.REPINS, p, 0, 0));
        assertThat(pools.best(1, Source.REPINS, 10)).containsExactly(new PoolEntry(1, Source.REPINS, forOne, 1001, 10, 501, T0 - HOUR));
        assertThat(best(2, Source.REPINS)).containsExactly(1001L);
        assertThat(pools.best(1, Source.FOLLOWED_USER, 10)).isEmpty();
        assertThat(pools.best(2, Source.FOLLOWED_BOARD, 10)).isEmpty();
    }

    @Test
    void poolsOrderPinsByRecencyPopularityAndAffinity() {
        long r = 1;
        long liked = 10;
        long stranger = 11;
        known(pin(2001, 600, liked, T0 - 5 * HOUR));
        known(pin(2002, 600, liked, T0 - 5 * HOUR));
        assertAllApplied(apply(liked(r, 2001, T0), liked(r, 2002, T0)));

        PinFacts old = pin(3001, 601, stranger, T0 - 48 * HOUR);
        PinFacts fresh = pin(3002, 601, stranger, T0);
        PinFacts popular = withLikes(pin(3003, 601, stranger, T0), 10);
        PinFacts fromLiked = pin(3004, 600, liked, T0);
        var to = List.of(receiver(r, Source.FOLLOWED_USER));
        assertAllApplied(apply(add(old, T0, to), add(fresh, T0, to), add(popular, T0, to), add(fromLiked, T0, to)));

        // popular: 1 + ln 11 = 3.40; from an author he liked twice: 1 + ln 3 = 2.10; fresh: 1; two days old: 0.63
        assertThat(best(r, Source.FOLLOWED_USER)).containsExactly(3003L, 3004L, 3002L, 3001L);
    }

    @Test
    void aReplayOrARescoreLeavesOneEntryPerPin() {
        PinFacts p = pin(1001, 501, 10, T0);
        var chunk = add(p, T0, List.of(receiver(1, Source.FOLLOWED_USER)));
        assertAllApplied(apply(chunk, chunk));
        clock.advance(Duration.ofHours(3));
        assertAllApplied(apply(chunk)); // the replay of a later day scores the pin lower
        assertThat(pools.all(1)).hasSize(1);
        assertThat(pools.all(1).get(0).score()).isLessThan(1.0);
        assertAllApplied(apply(add(p, T0, List.of(receiver(1, Source.FOLLOWED_BOARD)))));
        assertThat(pools.all(1)).extracting(PoolEntry::pinId, PoolEntry::source).containsExactly(org.assertj.core.groups.Tuple.tuple(1001L, Source.FOLLOWED_BOARD));
    }

    /**
     * A chunk seen for the first time is marked delivered and its entries skip the store's look for an
     * older entry of their pin; a replay of it, and a backfill, take the checked path.
     */
    @Test
    void aFirstDeliveryIsWrittenUnseenAndItsReplayChecked() {
        PinFacts p = pin(1001, 501, 10, T0);
        var chunk = add(p, T0, List.of(receiver(1, Source.FOLLOWED_USER), receiver(2, Source.FOLLOWED_BOARD)));
        assertAllApplied(apply(chunk));
        assertThat(pools.writtenUnseen).extracting(PoolEntry::userId).containsExactly(1L, 2L);
        clock.advance(Duration.ofHours(1));
        assertAllApplied(apply(chunk));
        assertThat(pools.writtenUnseen).as("the replay went the checked way").hasSize(2);
        assertThat(pools.all(1)).hasSize(1);
        assertThat(pools.all(2)).hasSize(1);

        known(pin(1002, 502, 20, T0));
        graph(new GraphCommand.CreateBoard(gid(), T0, 502, 20), new GraphCommand.FollowUser(gid(), T0, 3, 20));
        assertAllApplied(apply(followedUser(3, 20, T0)));
        assertThat(best(3, Source.FOLLOWED_USER)).containsExactly(1002L);
        assertThat(pools.writtenUnseen).as("a backfill is checked").hasSize(2);
    }

    /**
     * A related pin (fanout-streams' related app) goes to the related pool the checked way: it claims no delivery mark
     * (the pin's own fan-out chunk 0 still counts as a first delivery), never displaces the entry the user has from
     * following its author, and a pin he was shown does not come back.
     */
    @Test
    void relatedChunksTakeTheCheckedPathAndNeitherDuplicateNorResurrectAPin() {
        PinFacts q = known(pin(1001, 501, 10, T0));
        FanoutChunk related = add(q, T0, List.of(new dev.pinfeed.events.FanoutReceiver(1L, dev.pinfeed.events.FanoutSource.RELATED)));
        assertAllApplied(apply(related));
        assertThat(best(1, Source.RELATED)).containsExactly(1001L);
        assertThat(pools.writtenUnseen).as("a related entry is never written blind").isEmpty();

        // The pin's own fan-out (chunk 0, same pin) is still a first delivery: the related chunk claimed no marker.
        assertAllApplied(apply(add(q, T0, List.of(receiver(2, Source.FOLLOWED_USER)))));
        assertThat(pools.writtenUnseen).extracting(PoolEntry::userId).containsExactly(2L);

        // User 2 has the pin from following its author: the same pin recommended to him stays where it is, once.
        assertAllApplied(apply(add(q, T0, List.of(new dev.pinfeed.events.FanoutReceiver(2L, dev.pinfeed.events.FanoutSource.RELATED)))));
        assertThat(pools.all(2)).extracting(PoolEntry::pinId, PoolEntry::source)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(1001L, Source.FOLLOWED_USER));

        // User 1 was shown it: a later recommendation of it (a replay, another like) leaves it out.
        pools.removeShown(1, List.of(1001L));
        assertAllApplied(apply(related, add(q, T0, List.of(new dev.pinfeed.events.FanoutReceiver(1L, dev.pinfeed.events.FanoutSource.RELATED)))));
        assertThat(pools.all(1)).isEmpty();
    }

    /** A chunk marked delivered whose entries an outage kept out is written on its retry, checked. */
    @Test
    void aChunkMarkedButNotWrittenIsWrittenCheckedOnItsRetry() {
        PinFacts p = pin(1001, 501, 10, T0);
        var chunk = add(p, T0, List.of(receiver(1, Source.FOLLOWED_USER)));
        pools.upsertsLeft = 0;
        assertThat(apply(chunk)).extracting(Verdict::kind).containsExactly(Verdict.Kind.UNAVAILABLE);
        pools.upsertsLeft = Integer.MAX_VALUE;
        assertAllApplied(apply(chunk));
        assertThat(best(1, Source.FOLLOWED_USER)).containsExactly(1001L);
        assertThat(pools.writtenUnseen).isEmpty();
    }

    @Test
    void aLikeCountsOnceHoweverOftenItIsAppliedAndLikeUnlikeLikeEndsLiked() {
        long r = 1;
        known(pin(2001, 600, 10, T0));
        known(pin(2002, 600, 10, T0));
        var history = new SpecificRecord[] {liked(r, 2001, T0), unliked(r, 2001, T0 + 1), liked(r, 2001, T0 + 2), liked(r, 2002, T0 + 3)};
        assertAllApplied(apply(history));
        assertAllApplied(apply(history)); // replay
        assertThat(affinity.affinities(List.of(new AffinityStore.Pair(r, 10)))).containsValue(2L);
        assertAllApplied(apply(unliked(r, 2002, T0 + 4)));
        assertThat(affinity.affinities(List.of(new AffinityStore.Pair(r, 10)))).containsValue(1L);
    }

    @Test
    void aLikeOfAPinTheCanonicalStoreDoesNotKnowWaitsThenGoesToTheDeadLetters() {
        var like = liked(1, 9999, T0);
        Verdict first = apply(like).get(0);
        assertThat(first.kind()).isEqualTo(Verdict.Kind.WAITING);
        assertThat(first.reason()).isEqualTo(DeadLetters.MISSING_REFERENCE);
        assertThat(applyWaiting(like, T0 - 119_000).kind()).isEqualTo(Verdict.Kind.WAITING);
        Verdict last = applyWaiting(like, T0 - 120_000);
        assertThat(last.kind()).isEqualTo(Verdict.Kind.REJECTED);
        assertThat(last.detail()).contains("9999", "120 s");
        known(pin(9999, 600, 10, T0));
        assertThat(applyWaiting(like, T0 - 60_000).kind()).isEqualTo(Verdict.Kind.APPLIED);
    }

    @Test
    void aLikeWaitsPastItsGraceWhileTheMaterializerHasNotAppliedWhatItsTopicsHeldThen() {
        long[] upstream = {Long.MIN_VALUE};
        worker = new FeedWorker(pools, feeds, graph, new CanonicalReadsPins(canonical), affinity, scorer, WorkerSettings.defaults(), clock,
                new WorkerMetrics(meters), () -> upstream[0]);
        var like = liked(1, 9999, T0);
        long since = clock.millis() - 300_000; // waiting for five minutes, grace 120 s
        assertThat(applyWaiting(like, since).kind()).as("the pin may be in the materializer's backlog").isEqualTo(Verdict.Kind.WAITING);
        upstream[0] = since + 119_999;
        assertThat(applyWaiting(like, since).kind()).isEqualTo(Verdict.Kind.WAITING);
        upstream[0] = since + 120_000;
        Verdict last = applyWaiting(like, since);
        assertThat(last.kind()).isEqualTo(Verdict.Kind.REJECTED);
        assertThat(last.reason()).isEqualTo(DeadLetters.MISSING_REFERENCE);
    }

    @Test
    void aLikeOfADeletedPinChangesNoAffinity() {
        known(pin(2001, 600, 10, T0));
        canonical.deletePin(2001);
        assertAllApplied(apply(liked(1, 2001, T0)));
        assertThat(affinity.affinities(List.of(new AffinityStore.Pair(1, 10)))).containsValue(0L);
    }

    @Test
    void aWaitingEventHoldsBackTheLaterEventsOfItsKeyOnly() {
        known(pin(2002, 600, 10, T0));
        List<Verdict> v = apply(liked(1, 9999, T0), unliked(2, 9999, T0 + 1), liked(3, 2002, T0 + 2));
        assertThat(v.get(0).kind()).isEqualTo(Verdict.Kind.WAITING);
        assertThat(v.get(1).kind()).isEqualTo(Verdict.Kind.WAITING);
        assertThat(v.get(1).behind()).isTrue();
        assertThat(v.get(2).kind()).isEqualTo(Verdict.Kind.APPLIED);
    }

    @Test
    void poolsAreBoundedPerSourceKeepingTheBest() {
        worker = worker(new WorkerSettings(5, 3, 50, Duration.ofSeconds(120)));
        long r = 1;
        apply(add(pin(100, 501, 10, T0), T0, List.of(receiver(r, Source.FOLLOWED_BOARD))));
        for (int i = 1; i <= 8; i++) {
            PinFacts p = withLikes(pin(i, 501, 10, T0), i); // later pins are more liked
            assertAllApplied(apply(add(p, T0, List.of(receiver(r, Source.FOLLOWED_USER)))));
            assertThat(best(r, Source.FOLLOWED_USER)).hasSizeLessThanOrEqualTo(5);
        }
        // The 6th entry cut the pool back to its best 3 (6, 5, 4); 7 and 8 joined them.
        assertThat(best(r, Source.FOLLOWED_USER)).containsExactly(8L, 7L, 6L, 5L, 4L);
        assertThat(best(r, Source.FOLLOWED_BOARD)).containsExactly(100L);
        assertThat(counter("feed.worker.pool.removes", "reason", "trim")).isEqualTo(3);
    }

    @Test
    void aFollowBackfillsTheFolloweesNewestPinsExceptBoardsHeUnfollowed() {
        long f = 1;
        long a = 10;
        graph(new GraphCommand.CreateBoard(gid(), T0, 501, a), new GraphCommand.CreateBoard(gid(), T0, 502, a),
                new GraphCommand.CreateBoard(gid(), T0, 503, a), new GraphCommand.FollowUser(gid(), T0, f, a),
                new GraphCommand.UnfollowBoard(gid(), T0 + 1, f, 502, a));
        known(pin(1, 501, a, T0 - HOUR));
        known(pin(2, 501, a, T0 - 2 * HOUR));
        known(pin(3, 502, a, T0 - 3 * HOUR));
        known(pin(4, 503, a, T0 - 4 * HOUR));
        known(pin(5, 501, a, T0 - 100 * HOUR)); // beyond the newest 4
        known(pin(6, 501, 99, T0)); // someone else's
        worker = worker(new WorkerSettings(500, 450, 4, Duration.ofSeconds(120)));

        assertAllApplied(apply(followedUser(f, a, T0)));

        assertThat(best(f, Source.FOLLOWED_USER)).containsExactly(1L, 2L, 4L);
        assertThat(best(f, Source.FOLLOWED_BOARD)).isEmpty();
        assertThat(meters.get("feed.worker.backfill.pins").counter().count()).isEqualTo(3);
    }

    @Test
    void aBatchWhoseTimeRunsOutDefersTheRestAndTheNextTurnAppliesThem() {
        known(pin(1, 501, 10, T0 - HOUR));
        // Each board follow's backfill read takes 6 s of the batch's 15: the third runs past the budget, the fourth and fifth wait.
        CanonicalPins slowReads = WatchedBackfillReads.of(new CanonicalReadsPins(canonical), (method, args) -> clock.advance(Duration.ofSeconds(6)));
        worker = new FeedWorker(pools, feeds, graph, slowReads, affinity, scorer, WorkerSettings.defaults(), clock, new WorkerMetrics(meters));
        List<SpecificRecord> follows = new ArrayList<>();
        for (long f = 1; f <= 5; f++) follows.add(followedBoard(f, 501, 10, T0));

        List<Verdict> first = apply(follows.toArray(SpecificRecord[]::new));

        assertThat(first).extracting(Verdict::kind).containsExactly(Verdict.Kind.APPLIED, Verdict.Kind.APPLIED, Verdict.Kind.APPLIED,
                Verdict.Kind.DEFERRED, Verdict.Kind.DEFERRED);
        assertThat(first.get(3).detail()).contains("15000 ms ran out after 3 of 5 events");
        for (long f = 1; f <= 3; f++) assertThat(best(f, Source.FOLLOWED_BOARD)).containsExactly(1L);
        assertThat(pools.all(4)).as("not touched").isEmpty();

        assertAllApplied(apply(follows.get(3), follows.get(4))); // the next turn: a new budget
        assertThat(best(4, Source.FOLLOWED_BOARD)).containsExactly(1L);
        assertThat(best(5, Source.FOLLOWED_BOARD)).containsExactly(1L);
    }

    @Test
    void aBatchsUserFollowsReadTheirFolloweesNewestPinsInOneCall() {
        long a = 10, b = 20;
        graph(new GraphCommand.CreateBoard(gid(), T0, 501, a), new GraphCommand.CreateBoard(gid(), T0, 601, b));
        for (long f = 1; f <= 4; f++) graph(new GraphCommand.FollowUser(gid(), T0, f, f % 2 == 0 ? a : b));
        known(pin(1, 501, a, T0 - HOUR));
        known(pin(2, 601, b, T0 - HOUR));
        List<Object> asked = new ArrayList<>(); // each backfill read: the users it asks for, or the board
        CanonicalPins reads = WatchedBackfillReads.of(new CanonicalReadsPins(canonical), (method, args) -> asked.add(
                method.equals("newestOfUsers") ? List.copyOf((java.util.Collection<?>) args.get(0)) : args.get(0)));
        worker = new FeedWorker(pools, feeds, graph, reads, affinity, scorer, WorkerSettings.defaults(), clock, new WorkerMetrics(meters));

        assertAllApplied(apply(followedUser(1, b, T0), followedUser(2, a, T0), followedUser(3, b, T0), followedUser(4, a, T0),
                followedBoard(5, 501, a, T0)));

        assertThat(asked).as("one read for the batch's follows, one per board follow").containsExactly(List.of(b, a), 501L);
        for (long f = 1; f <= 4; f++) assertThat(best(f, Source.FOLLOWED_USER)).containsExactly(f % 2 == 0 ? 1L : 2L);
        assertThat(best(5, Source.FOLLOWED_BOARD)).containsExactly(1L);
        assertThat(apply(followedBoard(5, 501, a, T0 + 1))).extracting(Verdict::kind).containsExactly(Verdict.Kind.APPLIED);
        assertThat(asked).as("a batch without user follows reads none").hasSize(3);
    }

    @Test
    void aFollowTheGraphDoesNotShowYetWaitsForIt() {
        known(pin(1, 501, 10, T0));
        graph(new GraphCommand.CreateBoard(gid(), T0, 501, 10));
        var follow = followedUser(1, 10, T0);
        assertThat(apply(follow).get(0).kind()).isEqualTo(Verdict.Kind.WAITING);
        assertThat(pools.all(1)).isEmpty();

        graph(new GraphCommand.FollowUser(gid(), T0, 1, 10));
        assertThat(applyWaiting(follow, T0 - 1_000).kind()).isEqualTo(Verdict.Kind.APPLIED);
        assertThat(best(1, Source.FOLLOWED_USER)).containsExactly(1L);

        Verdict gaveUp = applyWaiting(followedUser(2, 10, T0), T0 - 121_000);
        assertThat(gaveUp.kind()).isEqualTo(Verdict.Kind.REJECTED);
        assertThat(gaveUp.reason()).isEqualTo(DeadLetters.MISSING_REFERENCE);
    }

    @Test
    void aBoardFollowBackfillsThatBoardsNewestPins() {
        known(pin(1, 501, 10, T0 - HOUR));
        known(pin(2, 501, 10, T0 - 2 * HOUR));
        known(pin(3, 502, 10, T0));
        assertAllApplied(apply(followedBoard(1, 501, 10, T0)));
        assertThat(best(1, Source.FOLLOWED_BOARD)).containsExactly(1L, 2L);
        assertThat(best(1, Source.FOLLOWED_USER)).isEmpty();
    }

    @Test
    void anUnfollowPurgesTheAuthorsPinsFromPoolsAndFeedExceptBoardsStillFollowed() {
        long f = 1;
        long a = 10;
        long c = 11;
        graph(new GraphCommand.CreateBoard(gid(), T0, 501, a), new GraphCommand.CreateBoard(gid(), T0, 502, a),
                new GraphCommand.FollowUser(gid(), T0, f, a), new GraphCommand.FollowBoard(gid(), T0 + 1, f, 501, a),
                new GraphCommand.UnfollowUser(gid(), T0 + 2, f, a));
        var to = List.of(receiver(f, Source.FOLLOWED_USER));
        apply(add(pin(1, 501, a, T0), T0, to), add(pin(2, 502, a, T0), T0, to), add(pin(3, 700, c, T0), T0, to));
        feeds.materialize(new Chunk(f, 1, List.of(item(4, 502, a), item(5, 700, c), item(6, 501, a), item(7, 502, a))));

        assertAllApplied(apply(unfollowedUser(f, a, T0 + 2)));

        assertThat(best(f, Source.FOLLOWED_USER)).containsExactlyInAnyOrder(1L, 3L);
        assertThat(feed(f)).containsExactly(5L, 6L);
        assertThat(counter("feed.worker.pool.removes", "reason", "unfollow_user")).isEqualTo(1);
    }

    private static FeedItem item(long pin, long board, long author) {
        return new FeedItem(pin, Source.FOLLOWED_USER, 1.0, author, board);
    }

    @Test
    void anUnfollowTheGraphHasNotAppliedYetWaits() {
        graph(new GraphCommand.CreateBoard(gid(), T0, 501, 10), new GraphCommand.FollowUser(gid(), T0, 1, 10));
        apply(add(pin(1, 501, 10, T0), T0, List.of(receiver(1, Source.FOLLOWED_USER))));
        assertThat(apply(unfollowedUser(1, 10, T0 + 1)).get(0).kind()).isEqualTo(Verdict.Kind.WAITING);
        assertThat(best(1, Source.FOLLOWED_USER)).containsExactly(1L);
    }

    @Test
    void aBoardUnfollowPurgesThatBoardFromPoolsAndFeed() {
        var to = List.of(receiver(1, Source.FOLLOWED_BOARD));
        apply(add(pin(1, 501, 10, T0), T0, to), add(pin(2, 502, 10, T0), T0, to));
        feeds.materialize(new Chunk(1, 1, List.of(item(3, 501, 10), item(4, 502, 10))));
        assertAllApplied(apply(unfollowedBoard(1, 501, 10, T0)));
        assertThat(best(1, Source.FOLLOWED_BOARD)).containsExactly(2L);
        assertThat(feed(1)).containsExactly(4L);
        assertThat(counter("feed.worker.pool.removes", "reason", "unfollow_board")).isEqualTo(1);
    }

    @Test
    void aDeletedPinLeavesEveryReceiversPoolAndFeed() {
        PinFacts p = pin(1, 501, 10, T0);
        apply(add(p, T0, List.of(receiver(1, Source.FOLLOWED_USER), receiver(2, Source.FOLLOWED_BOARD))),
                add(pin(2, 501, 10, T0), T0, List.of(receiver(1, Source.FOLLOWED_USER))));
        feeds.materialize(new Chunk(1, 1, List.of(item(1, 501, 10), item(9, 501, 10))));
        assertAllApplied(apply(remove(p, T0 + 1, List.of(receiver(1, Source.FOLLOWED_USER), receiver(2, Source.FOLLOWED_BOARD)))));
        assertThat(pools.all(1)).extracting(PoolEntry::pinId).containsExactly(2L);
        assertThat(pools.all(2)).isEmpty();
        assertThat(feed(1)).containsExactly(9L);
        assertThat(counter("feed.worker.pool.removes", "reason", "delete")).isEqualTo(2);
    }

    @Test
    void theEventsOfABatchTakeEffectInTheirOrder() {
        var to = List.of(receiver(1, Source.FOLLOWED_USER));
        PinFacts p = pin(1, 501, 10, T0);
        assertAllApplied(apply(add(p, T0, to), remove(p, T0 + 1, to), add(pin(2, 501, 10, T0), T0, to)));
        assertThat(best(1, Source.FOLLOWED_USER)).containsExactly(2L);

        // A follow taken back in the same batch backfills nothing, and the unfollow purges what was there.
        graph(new GraphCommand.CreateBoard(gid(), T0, 501, 10), new GraphCommand.FollowUser(gid(), T0, 1, 10),
                new GraphCommand.UnfollowUser(gid(), T0 + 1, 1, 10));
        known(pin(3, 501, 10, T0));
        assertAllApplied(apply(followedUser(1, 10, T0), unfollowedUser(1, 10, T0 + 1)));
        assertThat(pools.all(1)).isEmpty();
    }

    @Test
    void anOutageStopsTheBatchAndEverythingNotWrittenIsUnavailable() {
        var to = List.of(receiver(1, Source.FOLLOWED_USER));
        known(pin(9, 501, 10, T0));
        pools.upsertsLeft = 1;
        List<Verdict> v = apply(add(pin(1, 501, 10, T0), T0, to), remove(pin(5, 501, 10, T0), T0, to),
                add(pin(2, 501, 10, T0), T0, to), liked(1, 9, T0), add(pin(3, 501, 10, T0), T0, to));
        assertThat(v).extracting(Verdict::kind).containsExactly(Verdict.Kind.APPLIED, Verdict.Kind.APPLIED,
                Verdict.Kind.UNAVAILABLE, Verdict.Kind.UNAVAILABLE, Verdict.Kind.UNAVAILABLE);
        assertThat(v.get(2).outage().store()).isEqualTo("hbase-primary");
        assertThat(best(1, Source.FOLLOWED_USER)).containsExactly(1L);

        pools.down = true;
        assertThat(apply(remove(pin(1, 501, 10, T0), T0, to))).extracting(Verdict::kind).containsExactly(Verdict.Kind.UNAVAILABLE);
    }

    @Test
    void eventsTheWorkerDoesNotHandleAreRejected() {
        var created = new dev.pinfeed.events.PinCreated(1L, Instant.ofEpochMilli(T0), 1L, 1L, 2L, 3L, "x", null, null, null, java.util.List.of());
        Verdict v = apply(created).get(0);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.REJECTED);
        assertThat(v.reason()).isEqualTo(DeadLetters.UNEXPECTED_EVENT);
    }

    @Test
    void anInterestFollowWritesNothingAndAFollowUndoneInTheSameBatchPurgesNothing() {
        List<Verdict> v = apply(new dev.pinfeed.events.InterestUnfollowed(1L, Instant.ofEpochMilli(T0), 7L, 7L, 90L),
                new dev.pinfeed.events.InterestFollowed(2L, Instant.ofEpochMilli(T0 + 1), 7L, 7L, 90L));
        assertThat(v).extracting(Verdict::kind).containsExactly(Verdict.Kind.APPLIED, Verdict.Kind.APPLIED);
        assertThat(pools.all(7L)).isEmpty();
    }

    @Test
    void unfollowingAnInterestPurgesItsPinsFromTheInterestsPoolKeepingThoseOfAnotherFollowedInterestAndOtherPools() {
        long u = 7_001, author = 7_002, board = 7_003;
        long wood = dev.pinfeed.idallocator.ShardedId.compose(3, dev.pinfeed.idallocator.ObjectType.INTEREST, 41);
        long clay = dev.pinfeed.idallocator.ShardedId.compose(3, dev.pinfeed.idallocator.ObjectType.INTEREST, 42);
        PinFacts onlyWood = known(pin(7_101, board, author, T0 - 3_000));
        PinFacts both = known(pin(7_102, board, author, T0 - 2_000));
        PinFacts viaAuthor = known(pin(7_103, board, author, T0 - 1_000));
        canonical.tagPin(wood, onlyWood.pinId(), T0);
        canonical.tagPin(wood, both.pinId(), T0);
        canonical.tagPin(clay, both.pinId(), T0);
        canonical.tagPin(wood, viaAuthor.pinId(), T0);
        graph(new GraphCommand.FollowInterest(gid(), T0 - 10_000, u, wood), new GraphCommand.FollowInterest(gid(), T0 - 10_000, u, clay));
        FanoutReceiver asInterest = new FanoutReceiver(u, dev.pinfeed.events.FanoutSource.INTERESTS);
        assertAllApplied(apply(add(onlyWood, T0, List.of(asInterest)), add(both, T0, List.of(asInterest)),
                add(viaAuthor, T0, List.of(receiver(u, Source.FOLLOWED_USER)))));
        assertThat(best(u, Source.INTERESTS)).containsExactlyInAnyOrder(onlyWood.pinId(), both.pinId());

        var unfollow = new dev.pinfeed.events.InterestUnfollowed(gid(), Instant.ofEpochMilli(T0), u, u, wood);
        assertThat(applyWaiting(unfollow, T0).kind()).as("the graph still shows the follow").isEqualTo(Verdict.Kind.WAITING);
        graph(new GraphCommand.UnfollowInterest(gid(), T0, u, wood));
        assertAllApplied(apply(unfollow));

        assertThat(best(u, Source.INTERESTS)).as("the pin of clay, still followed, stays").containsExactly(both.pinId());
        assertThat(best(u, Source.FOLLOWED_USER)).containsExactly(viaAuthor.pinId());
        assertThat(counter("feed.worker.pool.removes", "reason", WorkerMetrics.UNFOLLOW_INTEREST)).isEqualTo(1);
    }
}
