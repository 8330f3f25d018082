package dev.pinfeed.followergraph;

import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The follower graph (seed 004). Writes are {@link GraphCommand}s, applied idempotently and in any
 * order: the newest {@link Version} per edge wins. Queries see every command applied before they
 * started (per store; the Redis store is eventually consistent across a pair's two shards for the
 * instant between its writes).
 *
 * <p>Newest-first lists order by (since desc, id desc) and page with opaque cursors (null = first
 * page); a page has at most {@code limit} items and {@code nextCursor} is null exactly when nothing follows.
 */
public interface GraphStore extends AutoCloseable {

    /** Largest page. */
    int MAX_PAGE = 10_000;
    /** Largest id batch for the "which of these" queries. */
    int MAX_BATCH = 1_000;

    /** Applies one command. Throws {@link InvalidCommandException} if it names a board's owner differently than before. */
    void apply(GraphCommand command);

    /**
     * Applies {@code commands} as {@link #apply} would one by one, in order, and says what became of each
     * (same index): the resulting graph is the one-by-one result, commands on the same edge included. A
     * refused command or an instance that does not answer fails only the commands concerned; the others
     * apply. The Redis store pipelines the batch per instance (a few round trips for the whole batch);
     * this default applies one at a time.
     */
    default List<CommandOutcome> applyAll(List<GraphCommand> commands) {
        List<CommandOutcome> out = new java.util.ArrayList<>(commands.size());
        for (GraphCommand c : commands) {
            try {
                apply(c);
                out.add(CommandOutcome.applied(c));
            } catch (InvalidCommandException | dev.pinfeed.config.StoreUnavailableException e) {
                out.add(new CommandOutcome(c, e));
            }
        }
        return out;
    }

    /** Does {@code followerId} follow user {@code userId}, and explicitly? */
    UserRelation relation(long followerId, long userId);

    /**
     * Does {@code userId} follow board {@code boardId}: explicitly, or through an explicit follow of
     * its owner without a newer unfollow of this board.
     */
    boolean followsBoard(long userId, long boardId);

    /** Which of up to {@link #MAX_BATCH} users {@code userId} follows (explicitly or implicitly). */
    Set<Long> followedAmong(long userId, Collection<Long> candidates);

    /** Which of up to {@link #MAX_BATCH} boards {@code userId} follows (as {@link #followsBoard}). */
    Set<Long> followedBoardsAmong(long userId, Collection<Long> boardIds);

    /** {@link #followedBoardsAmong} for any number of boards (repeats allowed), asked in slices of {@link #MAX_BATCH}. */
    default Set<Long> followedBoardsAmongAll(long userId, Collection<Long> boardIds) {
        List<Long> distinct = List.copyOf(new LinkedHashSet<>(boardIds));
        Set<Long> out = new HashSet<>();
        for (int from = 0; from < distinct.size(); from += MAX_BATCH) {
            out.addAll(followedBoardsAmong(userId, distinct.subList(from, Math.min(distinct.size(), from + MAX_BATCH))));
        }
        return out;
    }

    Counts counts(long userId);

    /** Explicit and implicit followers of {@code userId}, newest first. */
    Page<Edge> followers(long userId, String cursor, int limit);

    /** Users {@code userId} follows explicitly or implicitly, newest first. */
    Page<Edge> followingUsers(long userId, String cursor, int limit);

    /** Boards {@code userId} follows explicitly, newest first. */
    Page<Edge> followingBoards(long userId, String cursor, int limit);

    /** Boards {@code ownerId} owns (from BoardCreated), newest first. */
    Page<Edge> boardsOf(long ownerId, String cursor, int limit);

    /** How many boards {@code ownerId} owns (from BoardCreated), exact. */
    long boardsOwnedCount(long ownerId);

    OptionalLong boardOwner(long boardId);

    /**
     * Everyone who follows {@code boardId}: the owner's explicit followers minus the board's
     * unfollowers, plus the board's explicit followers — the fan-out list for its pins. Order is the
     * store's own and a page holds about {@code limit} receivers (the board-hash part follows Redis
     * HSCAN batches, which may be larger); a full pass (until nextCursor is null) yields every receiver
     * present throughout, each once unless the hash is resized mid-pass (fan-out writes are idempotent).
     */
    default Page<Long> boardReceivers(long boardId, String cursor, int limit) {
        Page<Receiver> page = receivers(boardId, cursor, limit);
        return new Page<>(page.items().stream().map(Receiver::userId).toList(), page.nextCursor());
    }

    /** {@link #boardReceivers}, each with why he receives the board's pins: the fan-out list with sources. */
    Page<Receiver> receivers(long boardId, String cursor, int limit);

    /** Number of {@link #boardReceivers}, exact; costs a pass over the board's explicit followers. */
    long boardFollowerCount(long boardId);

    /** Does {@code userId} follow interest {@code interestId}? */
    boolean followsInterest(long userId, long interestId);

    /** Interests {@code userId} follows, newest first (edges explicit). */
    Page<Edge> followingInterests(long userId, String cursor, int limit);

    /** How many interests {@code userId} follows, exact. */
    long followingInterestsCount(long userId);

    /** The followers of interest {@code interestId}, newest first: the fan-out list of its pins (edges explicit). */
    Page<Edge> interestFollowers(long interestId, String cursor, int limit);

    /** How many users follow interest {@code interestId}, exact. */
    long interestFollowerCount(long interestId);

    /** Which of up to {@link #MAX_BATCH} users follow interest {@code interestId}: one round trip. */
    Set<Long> interestFollowersAmong(long interestId, Collection<Long> users);

    /** Which of up to {@link #MAX_BATCH} users are receivers of board {@code boardId} ({@link #receivers}): one round trip. */
    Set<Long> boardReceiversAmong(long boardId, Collection<Long> users);

    @Override
    default void close() {}
}
