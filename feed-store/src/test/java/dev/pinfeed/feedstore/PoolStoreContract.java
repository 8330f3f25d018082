package dev.pinfeed.feedstore;

import static org.assertj.core.api.Assertions.assertThat;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What every {@link PoolStore} does; run against the in-memory store (unit) and HBase (IT). */
public abstract class PoolStoreContract {

    protected abstract PoolStore store();

    /** A user id no other test used. */
    protected abstract long freshUser();

    protected static PoolEntry entry(long user, Source source, double score, long pin) {
        return new PoolEntry(user, source, score, pin, 1000 + pin, 2000 + pin, 1_700_000_000_000L + pin);
    }

    private static List<Long> pins(List<PoolEntry> entries) {
        return entries.stream().map(PoolEntry::pinId).toList();
    }

    @Test
    void bestReturnsTheHighestScoresOfOnePoolFirst() {
        long u = freshUser();
        store().upsert(List.of(entry(u, Source.FOLLOWED_USER, 0.5, 1), entry(u, Source.FOLLOWED_USER, 2.0, 2),
                entry(u, Source.FOLLOWED_USER, 1.0, 3), entry(u, Source.FOLLOWED_BOARD, 9.0, 4)));
        assertThat(pins(store().best(u, Source.FOLLOWED_USER, 2))).containsExactly(2L, 3L);
        assertThat(pins(store().best(u, Source.FOLLOWED_USER, 10))).containsExactly(2L, 3L, 1L);
        assertThat(pins(store().best(u, Source.FOLLOWED_BOARD, 10))).containsExactly(4L);
        assertThat(store().best(u, Source.FOLLOWED_USER, 0)).isEmpty();
        assertThat(store().best(freshUser(), Source.FOLLOWED_USER, 5)).isEmpty();
    }

    /** One read of every pool: each pool it settles is exactly what best reads; small pools are all settled. */
    @Test
    void bestOfEachSettlesPoolsExactlyAsBestReadsThem() {
        long u = freshUser();
        store().upsert(List.of(entry(u, Source.FOLLOWED_USER, 0.5, 1), entry(u, Source.FOLLOWED_USER, 2.0, 2),
                entry(u, Source.FOLLOWED_USER, 1.0, 3), entry(u, Source.FOLLOWED_BOARD, 9.0, 4), entry(u, Source.RELATED, 1.0, 5),
                entry(u, Source.RELATED, 3.0, 6)));
        java.util.Set<Source> all = java.util.EnumSet.allOf(Source.class);
        Map<Source, List<PoolEntry>> small = store().bestOfEach(u, all, 2, 50);
        assertThat(small).containsOnlyKeys(all);
        for (Source s : all) assertThat(small.get(s)).as(s.name()).isEqualTo(store().best(u, s, 2));
        assertThat(pins(small.get(Source.FOLLOWED_USER))).containsExactly(2L, 3L);
        assertThat(store().bestOfEach(freshUser(), all, 25, 125)).containsOnlyKeys(all).allSatisfy((s, e) -> assertThat(e).isEmpty());
        // A read too short for every pool: whatever it settles is still exact.
        for (int rows = 1; rows <= 6; rows++) {
            for (int n = 1; n <= 4; n++) {
                Map<Source, List<PoolEntry>> part = store().bestOfEach(u, all, n, rows);
                for (Map.Entry<Source, List<PoolEntry>> e : part.entrySet()) {
                    assertThat(e.getValue()).as("%s of %d rows, n = %d", e.getKey(), rows, n).isEqualTo(store().best(u, e.getKey(), n));
                }
            }
        }
        assertThat(store().bestOfEach(u, java.util.EnumSet.of(Source.RELATED), 1, 50))
                .containsOnlyKeys(Source.RELATED).containsEntry(Source.RELATED, store().best(u, Source.RELATED, 1));
    }

    @Test
    void entriesKeepEverythingTheyWereWrittenWith() {
        long u = freshUser();
        PoolEntry e = new PoolEntry(u, Source.FOLLOWED_BOARD, 3.25, 77L, 88L, 99L, 1_767_225_600_123L);
        store().upsert(List.of(e));
        assertThat(store().best(u, Source.FOLLOWED_BOARD, 1)).containsExactly(e);
    }

    @Test
    void aReplayOrARescoreLeavesOneEntryPerPin() {
        long u = freshUser();
        store().upsert(List.of(entry(u, Source.FOLLOWED_USER, 1.0, 5)));
        store().upsert(List.of(entry(u, Source.FOLLOWED_USER, 1.0, 5))); // replay
        store().upsert(List.of(entry(u, Source.FOLLOWED_USER, 4.0, 5))); // re-score
        store().upsert(List.of(entry(u, Source.FOLLOWED_BOARD, 3.0, 5))); // another source
        assertThat(store().all(u)).containsExactly(entry(u, Source.FOLLOWED_BOARD, 3.0, 5));
        assertThat(store().best(u, Source.FOLLOWED_USER, 10)).isEmpty();
    }

    @Test
    void aPinShownToAUserIsLeftOutOfHisLaterUpsertsButNotOutOfOthers() {
        long u = freshUser();
        long other = freshUser();
        PoolEntry shown = entry(u, Source.FOLLOWED_USER, 2.0, 1);
        PoolEntry kept = entry(u, Source.FOLLOWED_USER, 1.0, 2);
        store().upsert(List.of(shown, kept));
        store().removeShown(u, List.of(1L));
        assertThat(store().all(u)).containsExactly(kept);
        store().upsert(List.of(entry(u, Source.FOLLOWED_BOARD, 5.0, 1))); // a replayed delivery, a backfill, a regeneration
        store().upsert(List.of(entry(u, Source.FOLLOWED_USER, 2.0, 1)), e -> false, 10, 10);
        assertThat(store().all(u)).as("never put back").containsExactly(kept);
        store().upsert(List.of(entry(other, Source.FOLLOWED_USER, 2.0, 1)));
        assertThat(pins(store().all(other))).as("another user still gets the pin").containsExactly(1L);
    }

    @Test
    void aShownChunkRemovesItsPinsAndThoseDroppedButRemembersOnlyTheShown() {
        long u = freshUser();
        store().upsert(List.of(entry(u, Source.FOLLOWED_USER, 3.0, 1), entry(u, Source.FOLLOWED_USER, 2.0, 2),
                entry(u, Source.FOLLOWED_USER, 1.0, 3)));
        store().removeShown(u, List.of(1L), List.of(2L));
        assertThat(pins(store().all(u))).containsExactly(3L);
        store().upsert(List.of(entry(u, Source.FOLLOWED_USER, 3.0, 1), entry(u, Source.FOLLOWED_USER, 2.0, 2)), e -> false, 10, 10);
        assertThat(pins(store().all(u))).as("the dropped pin may come back, the shown one never").containsExactlyInAnyOrder(2L, 3L);
    }

    @Test
    void shownAmongNamesThePinsTheUserWasShownAndOnlyHis() {
        long u = freshUser();
        long other = freshUser();
        store().removeShown(u, List.of(1L, 2L)); // shown, or a repin's parent marked seen: no entry needed
        assertThat(store().shownAmong(u, List.of(1L, 3L, 1L))).containsExactly(1L);
        assertThat(store().shownAmong(u, List.of())).isEmpty();
        assertThat(store().shownAmong(other, List.of(1L, 2L))).isEmpty();
    }

    @Test
    void aDeliveryIsMarkedOnce() {
        long pin = freshUser(); // any id no other test used
        PoolStore.Delivery first = new PoolStore.Delivery(pin, 0);
        PoolStore.Delivery second = new PoolStore.Delivery(pin, 1);
        assertThat(store().markDelivered(List.of(first))).isEmpty();
        assertThat(store().markDelivered(List.of(first, second))).containsExactly(first);
        assertThat(store().markDelivered(List.of(second, first))).containsExactlyInAnyOrder(first, second);
        assertThat(store().markDelivered(List.of())).isEmpty();
    }

    @Test
    void aRecommendationNeverDisplacesAnEntryFromAnotherPoolEvenWhenUnseen() {
        long u = freshUser();
        store().upsert(List.of(entry(u, Source.FOLLOWED_USER, 2.0, 1), entry(u, Source.REPINS, 2.0, 2)));
        store().upsert(List.of(entry(u, Source.RELATED, 9.0, 1), entry(u, Source.INTERESTS, 9.0, 2), entry(u, Source.RELATED, 1.0, 3)),
                e -> true, 10, 10);
        assertThat(store().all(u)).containsExactlyInAnyOrder(entry(u, Source.FOLLOWED_USER, 2.0, 1), entry(u, Source.REPINS, 2.0, 2),
                entry(u, Source.RELATED, 1.0, 3));
        store().upsert(List.of(entry(u, Source.RELATED, 4.0, 3))); // a re-score within its own pool still replaces it
        store().upsert(List.of(entry(u, Source.FOLLOWED_BOARD, 3.0, 3))); // and a follow's entry displaces the recommendation
        assertThat(store().all(u)).containsExactlyInAnyOrder(entry(u, Source.FOLLOWED_USER, 2.0, 1), entry(u, Source.REPINS, 2.0, 2),
                entry(u, Source.FOLLOWED_BOARD, 3.0, 3));
    }

    @Test
    void unseenEntriesAreStoredLikeAnyOtherAndACheckedWriteStillReplacesThem() {
        long u = freshUser();
        List<PoolEntry> entries = List.of(entry(u, Source.FOLLOWED_USER, 2.0, 1), entry(u, Source.FOLLOWED_BOARD, 1.0, 2));
        assertThat(store().upsert(entries, e -> true, 10, 10)).isZero();
        assertThat(store().all(u)).containsExactlyInAnyOrderElementsOf(entries);
        store().upsert(List.of(entry(u, Source.FOLLOWED_USER, 5.0, 2)), e -> false, 10, 10); // a re-score of pin 2
        assertThat(pins(store().best(u, Source.FOLLOWED_USER, 10))).containsExactly(2L, 1L);
        assertThat(store().best(u, Source.FOLLOWED_BOARD, 10)).isEmpty();
    }

    @Test
    void removeTakesPinsOutOfWhicheverPoolTheySitIn() {
        long u = freshUser();
        store().upsert(List.of(entry(u, Source.FOLLOWED_USER, 1.0, 1), entry(u, Source.FOLLOWED_BOARD, 1.0, 2),
                entry(u, Source.FOLLOWED_USER, 1.0, 3)));
        store().remove(u, List.of(1L, 2L, 42L));
        assertThat(pins(store().all(u))).containsExactly(3L);
        store().remove(u, List.of(1L)); // again: nothing to do
        assertThat(pins(store().all(u))).containsExactly(3L);
    }

    @Test
    void trimKeepsTheBestOfEachPool() {
        long u = freshUser();
        for (int i = 1; i <= 6; i++) {
            store().upsert(List.of(entry(u, Source.FOLLOWED_USER, i, i), entry(u, Source.FOLLOWED_BOARD, i, 100 + i)));
        }
        assertThat(store().trim(u, 4)).isEqualTo(4);
        assertThat(pins(store().best(u, Source.FOLLOWED_USER, 10))).containsExactly(6L, 5L, 4L, 3L);
        assertThat(pins(store().best(u, Source.FOLLOWED_BOARD, 10))).containsExactly(106L, 105L, 104L, 103L);
        assertThat(store().trim(u, 4)).isZero();
    }

    @Test
    void usersDoNotSeeEachOthersPools() {
        long a = freshUser();
        long b = freshUser();
        store().upsert(List.of(entry(a, Source.FOLLOWED_USER, 1.0, 1), entry(b, Source.FOLLOWED_USER, 1.0, 2)));
        assertThat(pins(store().all(a))).containsExactly(1L);
        assertThat(pins(store().all(b))).containsExactly(2L);
    }

    @Test
    void boundedUpsertsCutAPoolPastItsMaximumBackToItsBest() {
        long u = freshUser();
        int removed = 0;
        for (int i = 1; i <= 12; i++) {
            double score = i % 5 == 0 ? 100 + i : i; // pins 5 and 10 are the best
            removed += store().upsert(List.of(entry(u, Source.FOLLOWED_USER, score, i)), 5, 3);
            assertThat(store().best(u, Source.FOLLOWED_USER, 100)).as("after pin %d", i).hasSizeLessThanOrEqualTo(5);
        }
        // Cut at pins 6, 9 and 12 (the 6th entry of a pool), each time back to the best 3.
        assertThat(removed).isEqualTo(9);
        assertThat(pins(store().best(u, Source.FOLLOWED_USER, 100))).containsExactly(10L, 5L, 12L);
    }

    @Test
    void boundedUpsertsCountEachPoolOnItsOwnAndReplaysNeverCutAPoolWithinItsMaximum() {
        long u = freshUser();
        for (int i = 1; i <= 5; i++) {
            store().upsert(List.of(entry(u, Source.FOLLOWED_USER, i, i), entry(u, Source.FOLLOWED_BOARD, i, 100 + i)), 5, 2);
        }
        for (int replay = 0; replay < 3; replay++) {
            assertThat(store().upsert(List.of(entry(u, Source.FOLLOWED_USER, 1, 1), entry(u, Source.FOLLOWED_BOARD, 2, 102)), 5, 2))
                    .isZero();
        }
        assertThat(store().all(u)).hasSize(10);
        assertThat(store().upsert(List.of(entry(u, Source.FOLLOWED_BOARD, 0.5, 106)), 5, 2)).isEqualTo(4);
        assertThat(pins(store().best(u, Source.FOLLOWED_BOARD, 10))).containsExactly(105L, 104L);
        assertThat(pins(store().best(u, Source.FOLLOWED_USER, 10))).containsExactly(5L, 4L, 3L, 2L, 1L);
    }

    @Test
    void equalScoresAreCutNewestPinFirst() {
        long u = freshUser();
        List<PoolEntry> same = java.util.stream.LongStream.rangeClosed(1, 6).mapToObj(p -> entry(u, Source.FOLLOWED_USER, 1.0, p)).toList();
        assertThat(store().upsert(same, 5, 4)).isEqualTo(2);
        assertThat(pins(store().best(u, Source.FOLLOWED_USER, 10))).containsExactly(1L, 2L, 3L, 4L);
    }

    @Test
    void removalsNeverMakeABoundedUpsertCutTooMuch() {
        long u = freshUser();
        for (int i = 1; i <= 5; i++) store().upsert(List.of(entry(u, Source.FOLLOWED_USER, i, i)), 5, 3);
        store().remove(u, List.of(5L, 4L, 3L));
        assertThat(store().upsert(List.of(entry(u, Source.FOLLOWED_USER, 6, 6)), 5, 3)).isZero();
        assertThat(pins(store().best(u, Source.FOLLOWED_USER, 10))).containsExactly(6L, 2L, 1L); // nothing cut
        for (int i = 7; i <= 8; i++) store().upsert(List.of(entry(u, Source.FOLLOWED_USER, i, i)), 5, 3);
        assertThat(pins(store().best(u, Source.FOLLOWED_USER, 10))).containsExactly(8L, 7L, 6L, 2L, 1L);
        assertThat(store().upsert(List.of(entry(u, Source.FOLLOWED_USER, 9, 9)), 5, 3)).isEqualTo(3);
        assertThat(pins(store().best(u, Source.FOLLOWED_USER, 10))).containsExactly(9L, 8L, 7L);
    }

    @Test
    void boundsMustKeepSomethingAndNoMoreThanTheMaximum() {
        long u = freshUser();
        assertThatThrownBy(() -> store().upsert(List.of(entry(u, Source.FOLLOWED_USER, 1, 1)), 5, 6))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store().upsert(List.of(entry(u, Source.FOLLOWED_USER, 1, 1)), 5, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void removeForManyUsersTakesEachUsersPinsOnly() {
        long a = freshUser();
        long b = freshUser();
        store().upsert(List.of(entry(a, Source.FOLLOWED_USER, 1.0, 1), entry(a, Source.FOLLOWED_BOARD, 1.0, 2),
                entry(b, Source.FOLLOWED_USER, 1.0, 1), entry(b, Source.FOLLOWED_USER, 1.0, 3)));
        store().remove(Map.of(a, List.of(1L, 2L), b, List.of(3L, 99L)));
        assertThat(store().all(a)).isEmpty();
        assertThat(pins(store().all(b))).containsExactly(1L);
        store().remove(Map.of(a, List.of(1L), b, List.of())); // nothing left to do
        assertThat(pins(store().all(b))).containsExactly(1L);
    }
}
