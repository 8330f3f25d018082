package dev.pinfeed.operations.verify.pools;

import static dev.pinfeed.contentgenerator.HomeFeedWorld.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.feedstore.Chunk;
import dev.pinfeed.feedstore.FeedItem;
import dev.pinfeed.feedstore.PoolEntry;
import dev.pinfeed.feedstore.PoolRows;
import dev.pinfeed.feedstore.Source;
import dev.pinfeed.feedstore.scoring.Candidate;
import dev.pinfeed.feedstore.scoring.PinFacts;
import dev.pinfeed.feedstore.scoring.WeightedScorer;
import dev.pinfeed.contentgenerator.HomeFeedWorld;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The pools oracle and its repair over the stores in memory. */
class PoolVerifierTest {

    private final HomeFeedWorld w = new HomeFeedWorld();
    private final Deliveries deliveries = new Deliveries(u -> true);
    private PoolCheckSettings settings = PoolCheckSettings.defaults();

    /** A reader {@code u} following {@code author}, whose board {@code board} holds the pins made by {@link #pin}. */
    private final long u = w.user();
    private final long author = w.user();
    private final long board = w.board(author);

    {
        w.follow(u, author);
    }

    private long pin() {
        return w.pin(board, author, T0 - 60_000);
    }

    private PoolEntry entry(long pin, Source source, double score) {
        return new PoolEntry(u, source, score, pin, author, board, T0 - 60_000);
    }

    private PoolVerifier verifier() {
        return new PoolVerifier(w.feeds, w.canonical, w.graph, settings, Clock.fixed(Instant.ofEpochMilli(T0), ZoneOffset.UTC));
    }

    private UserCheck check() {
        return verifier().check(w.pools.rows(u), deliveries.to(u), w.pools.rebuiltAt(u));
    }

    private static List<String> kinds(UserCheck c) {
        return c.differences().stream().map(d -> d.kind().label() + " " + d.pinId()).toList();
    }

    private UserCheck repairAndCheckAgain(UserCheck c) {
        new PoolRepairer(w.pools, w.pools, settings).repair(c);
        return check();
    }

    @Test
    void poolsThatHoldWhatWasDeliveredOrShownAreClean() {
        long pooled = pin();
        long shown = pin();
        long pending = pin();
        long deleted = pin();
        for (long p : List.of(pooled, shown, pending, deleted)) deliveries.add(u, p, Source.FOLLOWED_USER, T0);
        w.pools.upsert(List.of(entry(pooled, Source.FOLLOWED_USER, 0.9)));
        w.feeds.materialize(new Chunk(u, 10, List.of(new FeedItem(shown, Source.FOLLOWED_USER, 0.9, author, board))));
        w.feeds.journal(new Chunk(u, 20, List.of(new FeedItem(pending, Source.FOLLOWED_USER, 0.9, author, board))));
        w.canonical.deletePin(deleted);

        UserCheck c = check();
        assertThat(c.differences()).isEmpty();
        assertThat(c.counts()).containsEntry(PoolVerifier.ENTRIES, 1L).containsEntry(PoolVerifier.DELIVERIES, 4L)
                .containsEntry(PoolVerifier.IN_POOLS, 1L).containsEntry(PoolVerifier.SHOWN, 2L).containsEntry(PoolVerifier.WITHDRAWN, 1L);
        assertThat(new PoolRepairer(w.pools, w.pools, settings).repair(c)).as("nothing to repair").isZero();
    }

    @Test
    void aLostEntryRowIsADanglingIndexAndTheRepairWritesTheEntryBackWhereTheIndexSays() {
        long p = pin();
        PoolEntry e = entry(p, Source.FOLLOWED_BOARD, 0.8125);
        w.pools.upsert(List.of(e, entry(pin(), Source.FOLLOWED_USER, 1.0)));
        w.pools.deleteEntryRows(List.of(e));

        UserCheck c = check();
        assertThat(kinds(c)).containsExactly("dangling-index " + p);
        assertThat(c.restore()).containsExactly(e);
        assertThat(repairAndCheckAgain(c).differences()).isEmpty();
        assertThat(w.pools.rows(u).live()).contains(e);
    }

    @Test
    void anOrphanRowIsNoEntryADeliveryOnlyItHoldsIsMissingAndTheRepairWritesItAgain() {
        long p = pin();
        w.pools.upsert(List.of(entry(p, Source.FOLLOWED_USER, 0.7)));
        w.pools.deleteIndexRows(u, List.of(p)); // readers skip the row from now on
        deliveries.add(u, p, Source.FOLLOWED_USER, T0 - 30_000);

        UserCheck c = check();
        assertThat(kinds(c)).containsExactly("missing " + p);
        assertThat(c.counts()).containsEntry(PoolVerifier.ORPHAN_ROWS, 1L);
        assertThat(repairAndCheckAgain(c).differences()).isEmpty();
        PoolRows.UserRows rows = w.pools.rows(u);
        assertThat(rows.orphans()).isEmpty();
        assertThat(rows.live()).extracting(PoolEntry::pinId).containsExactly(p);
    }

    @Test
    void aSecondRowOfAPinIsCountedNotADifferenceAndTheRepairDeletesIt() {
        long p = pin();
        PoolEntry old = entry(p, Source.FOLLOWED_USER, 0.5);
        PoolEntry current = entry(p, Source.FOLLOWED_BOARD, 0.9);
        w.pools.upsert(List.of(old));
        w.pools.deleteIndexRows(u, List.of(p));
        w.pools.upsert(List.of(current));

        UserCheck c = check();
        assertThat(kinds(c)).as("the store tolerates it: readers skip and delete it").isEmpty();
        assertThat(c.counts()).containsEntry(PoolVerifier.ORPHAN_ROWS, 1L);
        assertThat(c.deleteRows()).containsExactly(old);
        assertThat(c.repairable()).isTrue();
        assertThat(repairAndCheckAgain(c).counts()).doesNotContainKey(PoolVerifier.ORPHAN_ROWS);
        assertThat(w.pools.rows(u)).isEqualTo(new PoolRows.UserRows(u, List.of(current), List.of(), List.of(), Set.of()));
    }

    @Test
    void orphanRowsNothingExpectsAreCountedNotDifferencesAndTheRepairDeletesThem() {
        long p = pin();
        w.pools.upsert(List.of(entry(p, Source.FOLLOWED_USER, 0.25)));
        w.pools.deleteIndexRows(u, List.of(p));
        w.pools.upsert(List.of(entry(p, Source.FOLLOWED_USER, 0.75)));
        w.pools.deleteIndexRows(u, List.of(p));

        UserCheck c = check();
        assertThat(kinds(c)).as("left by a removal or a trim: readers skip and delete them").isEmpty();
        assertThat(c.counts()).containsEntry(PoolVerifier.ORPHAN_ROWS, 2L);
        assertThat(c.repairable()).isTrue();
        repairAndCheckAgain(c);
        assertThat(w.pools.rows(u).isEmpty()).isTrue();
    }

    @Test
    void entriesOfDeletedPinsAndOfBoardsHeDoesNotReceiveAreRemoved() {
        long kept = pin();
        long deleted = pin();
        long stranger = w.user();
        long strangersBoard = w.board(stranger);
        long notFollowed = w.pin(strangersBoard, stranger, T0 - 1_000);
        long otherBoard = w.board(author);
        long unfollowed = w.pin(otherBoard, author, T0 - 1_000);
        w.unfollowBoard(u, otherBoard, author);
        w.pools.upsert(List.of(entry(kept, Source.FOLLOWED_USER, 1), entry(deleted, Source.FOLLOWED_USER, 1),
                new PoolEntry(u, Source.FOLLOWED_USER, 1, notFollowed, stranger, strangersBoard, T0),
                new PoolEntry(u, Source.FOLLOWED_USER, 1, unfollowed, author, otherBoard, T0)));
        w.canonical.deletePin(deleted);

        UserCheck c = check();
        assertThat(kinds(c)).containsExactlyInAnyOrder("deleted-pin " + deleted, "extra " + notFollowed, "extra " + unfollowed);
        assertThat(c.remove()).containsExactlyInAnyOrder(deleted, notFollowed, unfollowed);
        assertThat(repairAndCheckAgain(c).differences()).isEmpty();
        assertThat(w.pools.all(u)).extracting(PoolEntry::pinId).containsExactly(kept);
    }

    /** A related pin is his by recommendation, not by the graph: kept, unless its pin was deleted. */
    @Test
    void recommendedPinsOfBoardsHeDoesNotReceiveAreKeptUnlessDeleted() {
        long stranger = w.user();
        long strangersBoard = w.board(stranger);
        long related = w.pin(strangersBoard, stranger, T0 - 1_000);
        long deleted = w.pin(strangersBoard, stranger, T0 - 1_000);
        w.pools.upsert(List.of(new PoolEntry(u, Source.RELATED, 1, related, stranger, strangersBoard, T0),
                new PoolEntry(u, Source.RELATED, 1, deleted, stranger, strangersBoard, T0)));
        w.canonical.deletePin(deleted);

        UserCheck c = check();
        assertThat(kinds(c)).containsExactly("deleted-pin " + deleted);
        assertThat(repairAndCheckAgain(c).differences()).isEmpty();
        assertThat(w.pools.all(u)).extracting(PoolEntry::pinId).containsExactly(related);
    }

    @Test
    void damagedRowsOfPinsThatDoNotBelongGoWhole() {
        long deleted = pin();
        PoolEntry e = entry(deleted, Source.FOLLOWED_USER, 1);
        w.pools.upsert(List.of(e));
        w.pools.deleteIndexRows(u, List.of(deleted));
        long gone = pin();
        PoolEntry f = entry(gone, Source.FOLLOWED_USER, 2);
        w.pools.upsert(List.of(f));
        w.pools.deleteEntryRows(List.of(f));
        w.canonical.deletePin(deleted);
        w.canonical.deletePin(gone);

        UserCheck c = check();
        assertThat(kinds(c)).as("the orphan row is no entry: counted").containsExactly("dangling-index " + gone);
        assertThat(c.counts()).containsEntry(PoolVerifier.ORPHAN_ROWS, 1L);
        assertThat(repairAndCheckAgain(c).differences()).isEmpty();
        assertThat(w.pools.rows(u).isEmpty()).isTrue();
    }

    @Test
    void deliveriesFromBeforeARebuildAreSupersededAndLaterOnesExpected() {
        long before = pin();
        long after = pin();
        deliveries.add(u, before, Source.FOLLOWED_USER, T0 - 30_000);
        deliveries.add(u, after, Source.FOLLOWED_USER, T0 - 10_000);
        w.pools.markRebuilt(u, T0 - 20_000);

        UserCheck c = check();
        assertThat(kinds(c)).containsExactly("missing " + after);
        assertThat(c.counts()).containsEntry(PoolVerifier.BEFORE_REBUILD, 1L);
    }

    @Test
    void aDeliveryInNeitherPoolsNorFeedIsMissingAndTheRepairScoresItAsTheWorkerWouldHaveThen() {
        long p = pin();
        long deliveredAt = T0 - 30_000;
        deliveries.add(u, p, Source.FOLLOWED_BOARD, deliveredAt);
        w.canonical.like(w.user(), p, T0 - 10_000, true);

        UserCheck c = check();
        assertThat(kinds(c)).containsExactly("missing " + p);
        double expected = new WeightedScorer(WeightedScorer.Settings.defaults(), Clock.fixed(Instant.ofEpochMilli(deliveredAt), ZoneOffset.UTC))
                .score(new Candidate(u, Source.FOLLOWED_BOARD, new PinFacts(p, board, author, T0 - 60_000), 0, 1));
        assertThat(c.add()).containsExactly(new PoolEntry(u, Source.FOLLOWED_BOARD, expected, p, author, board, T0 - 60_000));
        assertThat(repairAndCheckAgain(c).differences()).isEmpty();
        UserCheck again = check();
        assertThat(new PoolRepairer(w.pools, w.pools, settings).repair(again)).as("a second repair has nothing to do").isZero();
    }

    @Test
    void aDeliveryOfAPinHeNoLongerReceivesIsNotExpected() {
        long otherBoard = w.board(author);
        long p = w.pin(otherBoard, author, T0 - 1_000);
        deliveries.add(u, p, Source.FOLLOWED_USER, T0 - 500);
        w.unfollowBoard(u, otherBoard, author);
        UserCheck c = check();
        assertThat(c.differences()).isEmpty();
        assertThat(c.counts()).containsEntry(PoolVerifier.WITHDRAWN, 1L);
    }

    @Test
    void aDeliveryAFullPoolWouldHaveCutIsTrimmedNotMissing() {
        settings = new PoolCheckSettings(4, 3, WeightedScorer.Settings.defaults(), Map.of());
        for (int i = 0; i < 3; i++) w.pools.upsert(List.of(entry(pin(), Source.FOLLOWED_USER, 5.0 + i)));
        long low = pin();
        deliveries.add(u, low, Source.FOLLOWED_USER, T0);
        long boardSide = pin();
        deliveries.add(u, boardSide, Source.FOLLOWED_BOARD, T0); // that pool is empty: it cut nothing

        UserCheck c = check();
        assertThat(kinds(c)).containsExactly("missing " + boardSide);
        assertThat(c.counts()).containsEntry(PoolVerifier.TRIMMED, 1L);

        w.pools.remove(u, List.of(w.pools.best(u, Source.FOLLOWED_USER, 1).get(0).pinId()));
        assertThat(kinds(check())).as("below feed.pool-trim-to no trim ran").containsExactlyInAnyOrder("missing " + low, "missing " + boardSide);
    }

    @Test
    void aDeliveryLikedSinceATrimCutItIsStillTrimmed() {
        settings = new PoolCheckSettings(4, 3, WeightedScorer.Settings.defaults(), Map.of());
        for (int i = 0; i < 3; i++) w.pools.upsert(List.of(entry(pin(), Source.FOLLOWED_USER, 1.2)));
        long liked = pin();
        for (int i = 0; i < 10; i++) w.canonical.like(w.user(), liked, T0 - 1_000, true);
        deliveries.add(u, liked, Source.FOLLOWED_USER, T0 - 30_000);

        UserCheck c = check();
        assertThat(c.differences()).as("stored before its likes, it scored below what the pool kept").isEmpty();
        assertThat(c.counts()).containsEntry(PoolVerifier.TRIMMED, 1L);
    }

    @Test
    void entriesScoredLowerThatCameInAfterATrimDoNotMakeItsCutMissing() {
        settings = new PoolCheckSettings(4, 3, WeightedScorer.Settings.defaults(), Map.of());
        for (int i = 0; i < 3; i++) w.pools.upsert(List.of(entry(pin(), Source.FOLLOWED_USER, 5.0 + i)));
        long cut = pin();
        deliveries.add(u, cut, Source.FOLLOWED_USER, T0);
        w.pools.upsert(List.of(entry(pin(), Source.FOLLOWED_USER, 0.01))); // after the cut, below everything

        UserCheck c = check();
        assertThat(c.differences()).as("the three the cut kept are all still there").isEmpty();
        assertThat(c.counts()).containsEntry(PoolVerifier.TRIMMED, 1L);
    }

    @Test
    void pinsShownSinceATrimStillCountTowardsThePoolItCut() {
        settings = new PoolCheckSettings(4, 3, WeightedScorer.Settings.defaults(), Map.of());
        for (int i = 0; i < 2; i++) w.pools.upsert(List.of(entry(pin(), Source.FOLLOWED_USER, 5.0 + i)));
        long low = pin();
        deliveries.add(u, low, Source.FOLLOWED_USER, T0);
        assertThat(kinds(check())).as("two pooled: no trim ran").containsExactly("missing " + low);

        long shown = pin();
        w.feeds.materialize(new Chunk(u, 10, List.of(new FeedItem(shown, Source.FOLLOWED_USER, 9.0, author, board))));
        UserCheck c = check();
        assertThat(c.differences()).as("two pooled and one shown since: the pool was at its bound").isEmpty();
        assertThat(c.counts()).containsEntry(PoolVerifier.TRIMMED, 1L);
    }

    @Test
    void aDeliveryScoredUnderTheGeneratorsDropBarWasDroppedUnseen() {
        settings = new PoolCheckSettings(500, 450, WeightedScorer.Settings.defaults(), Map.of(Source.FOLLOWED_USER, 2.0));
        long p = pin();
        deliveries.add(u, p, Source.FOLLOWED_USER, T0);
        UserCheck c = check();
        assertThat(c.differences()).isEmpty();
        assertThat(c.counts()).containsEntry(PoolVerifier.DROPPED, 1L);
    }

    @Test
    void anEntryWhoseIdIsNoPinIdIsNoLivePin() {
        PoolEntry junk = new PoolEntry(u, Source.FOLLOWED_USER, 1, 42, author, board, T0);
        w.pools.upsert(List.of(junk));
        UserCheck c = check();
        assertThat(kinds(c)).containsExactly("deleted-pin 42");
        assertThat(repairAndCheckAgain(c).differences()).isEmpty();
    }

    @Test
    void aBoardFollowerReceivesTheBoardsPinsWithoutFollowingItsAuthor() {
        long reader = w.user();
        long p = pin();
        w.followBoard(reader, board, author);
        deliveries.add(reader, p, Source.FOLLOWED_BOARD, T0);
        w.pools.upsert(List.of(new PoolEntry(reader, Source.FOLLOWED_BOARD, 1, p, author, board, T0)));
        assertThat(verifier().check(w.pools.rows(reader), deliveries.to(reader), w.pools.rebuiltAt(reader)).differences()).isEmpty();
    }
}
