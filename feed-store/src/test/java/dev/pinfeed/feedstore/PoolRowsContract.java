package dev.pinfeed.feedstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What every {@link PoolRows} (over its {@link PoolStore}) shows of damaged and healthy pools; run against the
 * in-memory store (unit) and HBase (IT). Damage is made the way the operator's tools see it: rows deleted one
 * at a time.
 */
public abstract class PoolRowsContract {

    /** The store under test. */
    protected abstract PoolStore pools();

    /** The rows of {@link #pools()}: the same store. */
    protected abstract PoolRows rows();

    /** A user id no other test used, larger than every id used before. */
    protected abstract long freshUser();

    private static PoolEntry entry(long user, Source source, double score, long pin) {
        return new PoolEntry(user, source, score, pin, 1000 + pin, 2000 + pin, 1_700_000_000_000L + pin);
    }

    @Test
    void aHealthyPoolIsAllLive() {
        long u = freshUser();
        PoolEntry a = entry(u, Source.FOLLOWED_USER, 2.0, 1);
        PoolEntry b = entry(u, Source.FOLLOWED_BOARD, 0.5, 2);
        pools().upsert(List.of(a, b));
        PoolRows.UserRows rows = rows().rows(u);
        assertThat(rows.userId()).isEqualTo(u);
        assertThat(rows.live()).containsExactlyInAnyOrder(a, b);
        assertThat(rows.orphans()).isEmpty();
        assertThat(rows.dangling()).isEmpty();
        assertThat(rows().rows(freshUser()).isEmpty()).isTrue();
    }

    @Test
    void aDeletedEntryRowLeavesItsIndexRowDanglingAndReadersSkipThePin() {
        long u = freshUser();
        PoolEntry a = entry(u, Source.FOLLOWED_USER, 2.0, 1);
        PoolEntry b = entry(u, Source.FOLLOWED_BOARD, 0.75, 2);
        pools().upsert(List.of(a, b));
        rows().deleteEntryRows(List.of(b));
        rows().deleteEntryRows(List.of(b)); // again: nothing more
        PoolRows.UserRows rows = rows().rows(u);
        assertThat(rows.live()).containsExactly(a);
        assertThat(rows.orphans()).isEmpty();
        assertThat(rows.dangling()).containsExactly(new PoolRows.IndexRow(u, 2, Source.FOLLOWED_BOARD, 0.75));
        assertThat(pools().all(u)).containsExactly(a);
    }

    @Test
    void aDeletedIndexRowLeavesAnOrphanThatAnUpsertOfTheSameEntryTakesBack() {
        long u = freshUser();
        PoolEntry a = entry(u, Source.FOLLOWED_USER, 2.0, 1);
        pools().upsert(List.of(a));
        rows().deleteIndexRows(u, List.of(1L, 99L));
        PoolRows.UserRows rows = rows().rows(u);
        assertThat(rows.live()).isEmpty();
        assertThat(rows.orphans()).containsExactly(a);
        assertThat(rows.dangling()).isEmpty();
        assertThat(pools().best(u, Source.FOLLOWED_USER, 10)).isEmpty();

        pools().upsert(List.of(a)); // the same row, pointed at again
        assertThat(rows().rows(u)).isEqualTo(new PoolRows.UserRows(u, List.of(a), List.of(), List.of(), Set.of()));
    }

    @Test
    void aSecondRowOfAPinIsAnOrphanBesideTheLiveEntryAndCanBeDeletedAlone() {
        long u = freshUser();
        PoolEntry old = entry(u, Source.FOLLOWED_USER, 1.0, 1);
        PoolEntry rescored = entry(u, Source.FOLLOWED_BOARD, 3.0, 1);
        pools().upsert(List.of(old));
        rows().deleteIndexRows(u, List.of(1L));
        pools().upsert(List.of(rescored)); // no index row to find: the old row stays
        PoolRows.UserRows rows = rows().rows(u);
        assertThat(rows.live()).containsExactly(rescored);
        assertThat(rows.orphans()).containsExactly(old);
        rows().deleteEntryRows(List.of(old));
        assertThat(rows().rows(u)).isEqualTo(new PoolRows.UserRows(u, List.of(rescored), List.of(), List.of(), Set.of()));
    }

    @Test
    void removeTakesADanglingIndexRowAndLeavesOrphans() {
        long u = freshUser();
        PoolEntry a = entry(u, Source.FOLLOWED_USER, 2.0, 1);
        PoolEntry b = entry(u, Source.FOLLOWED_USER, 1.0, 2);
        pools().upsert(List.of(a, b));
        rows().deleteEntryRows(List.of(a));
        rows().deleteIndexRows(u, List.of(2L));
        pools().remove(u, List.of(1L, 2L));
        assertThat(rows().rows(u)).isEqualTo(new PoolRows.UserRows(u, List.of(), List.of(b), List.of(), Set.of()));
        rows().deleteEntryRows(List.of(b));
        assertThat(rows().rows(u).isEmpty()).isTrue();
    }

    @Test
    void thePinsAUserWasShownAreListedUntilForgotten() {
        long u = freshUser();
        PoolEntry a = entry(u, Source.FOLLOWED_USER, 2.0, 1);
        pools().upsert(List.of(a, entry(u, Source.FOLLOWED_USER, 1.0, 2)));
        pools().removeShown(u, List.of(2L, 3L));
        assertThat(rows().rows(u)).isEqualTo(new PoolRows.UserRows(u, List.of(a), List.of(), List.of(), Set.of(2L, 3L)));
        rows().forgetShown(u);
        rows().forgetShown(u); // again: nothing more
        assertThat(rows().rows(u).shown()).isEmpty();
        pools().upsert(List.of(entry(u, Source.FOLLOWED_USER, 1.0, 2)));
        assertThat(rows().rows(u).live()).hasSize(2);
    }

    @Test
    void anUpsertOverADanglingIndexRowWritesTheEntryWhereTheIndexSays() {
        long u = freshUser();
        PoolEntry a = entry(u, Source.FOLLOWED_BOARD, 1.5, 1);
        pools().upsert(List.of(a));
        rows().deleteEntryRows(List.of(a));
        pools().upsert(List.of(a));
        assertThat(rows().rows(u)).isEqualTo(new PoolRows.UserRows(u, List.of(a), List.of(), List.of(), Set.of()));
    }

    @Test
    void rowsAfterListsUsersWithAnyRowInIdOrderFromAfterTheGivenOne() {
        long first = freshUser();
        long second = freshUser();
        long third = freshUser();
        long fourth = freshUser();
        pools().upsert(List.of(entry(first, Source.FOLLOWED_USER, 1.0, 1)));
        pools().upsert(List.of(entry(second, Source.FOLLOWED_USER, 1.0, 2)));
        rows().deleteIndexRows(second, List.of(2L)); // only an orphan row left
        pools().upsert(List.of(entry(fourth, Source.FOLLOWED_BOARD, 1.0, 4)));
        rows().deleteEntryRows(List.of(entry(fourth, Source.FOLLOWED_BOARD, 1.0, 4))); // only a dangling index row left
        pools().markDelivered(List.of(new PoolStore.Delivery(third, 0))); // a marker keyed like a user: not a pool row

        List<PoolRows.UserRows> page = rows().rowsAfter(first - 1, 2);
        assertThat(page).extracting(PoolRows.UserRows::userId).containsExactly(first, second);
        assertThat(page.get(1).orphans()).hasSize(1);
        List<PoolRows.UserRows> rest = rows().rowsAfter(second, 10).stream().filter(r -> r.userId() <= fourth).toList();
        assertThat(rest).extracting(PoolRows.UserRows::userId).containsExactly(fourth);
        assertThat(rest.get(0).dangling()).containsExactly(new PoolRows.IndexRow(fourth, 4, Source.FOLLOWED_BOARD, 1.0));
    }

    /**
     * A pin written again without the index read (a first-marked fan-out chunk racing a follow's backfill) leaves its
     * old row behind: an orphan. Bounding a pool counts entries, never such rows, so orphans cannot push live entries
     * out of a pool that is within its bound.
     */
    @Test
    void orphanRowsTakeNoEntrysPlaceWhenAPoolIsBounded() {
        long u = freshUser();
        pools().upsert(List.of(entry(u, Source.FOLLOWED_USER, 10, 1), entry(u, Source.FOLLOWED_USER, 9, 2),
                entry(u, Source.FOLLOWED_USER, 8, 3)), 5, 4);
        rows().deleteIndexRows(u, List.of(1L, 2L, 3L)); // their rows are orphans now, scored above what follows
        List<PoolEntry> again = List.of(entry(u, Source.FOLLOWED_USER, 3, 1), entry(u, Source.FOLLOWED_USER, 2, 2),
                entry(u, Source.FOLLOWED_USER, 1, 3));
        assertThat(pools().upsert(again, 5, 4)).as("3 entries (and 3 orphan rows) are within a bound of 5").isZero();
        assertThat(rows().rows(u).live()).containsExactlyInAnyOrderElementsOf(again);

        PoolEntry four = entry(u, Source.FOLLOWED_USER, 5, 4);
        PoolEntry five = entry(u, Source.FOLLOWED_USER, 4, 5);
        PoolEntry six = entry(u, Source.FOLLOWED_USER, 0.5, 6);
        assertThat(pools().upsert(List.of(four, five, six), 5, 4)).as("6 entries: the 2 worst go").isEqualTo(2);
        assertThat(rows().rows(u).live()).containsExactlyInAnyOrder(four, five, again.get(0), again.get(1));
    }

    @Test
    void aRebuildMarkIsKeptPerUserAndReplaced() {
        long u = freshUser();
        long other = freshUser();
        assertThat(rows().rebuiltAt(u)).isEmpty();
        rows().markRebuilt(u, 1_767_225_600_000L);
        rows().markRebuilt(u, 1_767_225_700_000L);
        assertThat(rows().rebuiltAt(u)).hasValue(1_767_225_700_000L);
        assertThat(rows().rebuiltAt(other)).isEmpty();
        assertThat(rows().rows(u).isEmpty()).as("no pool row").isTrue();
        assertThat(rows().rowsAfter(u - 1, 1)).as("a user with only the mark is not listed").allMatch(r -> r.userId() != u);
    }
}
