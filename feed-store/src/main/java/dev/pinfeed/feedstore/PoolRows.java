package dev.pinfeed.feedstore;

import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The pools as stored, for the operators' check and repair ({@code ./pinfeed verify pools}): a pool entry
 * is two rows, the entry (sorted by score) and the user's index row of the pin (where his entry is).
 * Readers ({@link PoolStore#best}, {@link PoolStore#all}) serve only the entries their index row points
 * at and skip the rest; this view shows everything, changes nothing by reading, and changes rows only
 * when asked.
 */
public interface PoolRows {

    /** A user's index row of a pin: his entry of the pin should be in {@code source}'s pool with {@code score}. */
    record IndexRow(long userId, long pinId, Source source, double score) {}

    /**
     * Everything stored for one user's pools.
     *
     * @param live     entries whose index row points at them: what readers serve, one per pin
     * @param orphans  entry rows no index row points at (an interrupted re-score leaves one; readers skip them)
     * @param dangling index rows pointing at no entry row
     * @param shown    pins he was shown ({@link PoolStore#removeShown}) and that upserts therefore leave out
     */
    record UserRows(long userId, List<PoolEntry> live, List<PoolEntry> orphans, List<IndexRow> dangling, Set<Long> shown) {

        public UserRows {
            live = List.copyOf(live);
            orphans = List.copyOf(orphans);
            dangling = List.copyOf(dangling);
            shown = Set.copyOf(shown);
        }

        /** No pool row (pins he was shown aside). */
        public boolean isEmpty() {
            return live.isEmpty() && orphans.isEmpty() && dangling.isEmpty();
        }
    }

    /** The user's rows (all empty when he has none). */
    UserRows rows(long userId);

    /**
     * The rows of the users after {@code afterUserId} (exclusive; 0 = from the first), in ascending id
     * order, at most {@code maxUsers} of them; users without any pool row are not listed. An empty list:
     * no user follows.
     */
    List<UserRows> rowsAfter(long afterUserId, int maxUsers);

    /** Deletes exactly these entry rows (as {@link UserRows} lists them), leaving every index row as it is. Idempotent. */
    void deleteEntryRows(Collection<PoolEntry> rows);

    /** Deletes the user's index rows of these pins, leaving every entry row as it is. Idempotent. */
    void deleteIndexRows(long userId, Collection<Long> pinIds);

    /** Forgets which pins the user was shown (a feed rebuilt from scratch may show them again). Idempotent. */
    void forgetShown(long userId);

    /**
     * Remembers that the user's pools were rebuilt from what he follows at {@code atMillis}: what was delivered to him
     * before is superseded (a check no longer expects it). A later call replaces it.
     */
    void markRebuilt(long userId, long atMillis);

    /** When the user's pools were last rebuilt ({@link #markRebuilt}), if ever. */
    OptionalLong rebuiltAt(long userId);
}
