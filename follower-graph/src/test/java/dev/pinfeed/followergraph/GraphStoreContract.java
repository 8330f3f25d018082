package dev.pinfeed.followergraph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.followergraph.GraphCommand.CreateBoard;
import dev.pinfeed.followergraph.GraphCommand.FollowBoard;
import dev.pinfeed.followergraph.GraphCommand.FollowUser;
import dev.pinfeed.followergraph.GraphCommand.UnfollowBoard;
import dev.pinfeed.followergraph.GraphCommand.UnfollowUser;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.LongStream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link GraphStore} promises (seed 004's follower model plus the ordering rule). Run
 * against the reference model, the in-memory store and Redis.
 */
public abstract class GraphStoreContract {

    /** A store with nothing in it (a fresh key prefix on shared servers). */
    protected abstract GraphStore newStore();

    /** An id no earlier test used. */
    protected abstract long freshId();

    private static final long T0 = 1_767_225_600_000L;

    protected GraphStore graph;
    private long eventIds;

    @BeforeEach
    void openStore() {
        graph = newStore();
        eventIds = freshId();
    }

    @AfterEach
    void closeStore() {
        graph.close();
    }

    // ---------------------------------------------------------------- the seed's rules

    @Test
    void followingAUserIsExplicitOnBothSides() {
        long a = freshId(), b = freshId();
        apply(followUser(a, b, 10));

        assertThat(graph.relation(a, b)).isEqualTo(UserRelation.EXPLICIT);
        assertThat(graph.relation(b, a)).isEqualTo(UserRelation.NONE);
        assertThat(graph.counts(a)).isEqualTo(new Counts(0, 0, 1, 0, 0));
        assertThat(graph.counts(b)).isEqualTo(new Counts(1, 0, 0, 0, 0));
        assertThat(graph.followingUsers(a, null, 10).items()).containsExactly(new Edge(b, T0 + 10, true));
        assertThat(graph.followers(b, null, 10).items()).containsExactly(new Edge(a, T0 + 10, true));
    }

    @Test
    void followingAUserFollowsAllHisBoardsIncludingLaterOnes() {
        long a = freshId(), b = freshId(), x1 = freshId(), x2 = freshId();
        apply(createBoard(x1, b, 1), followUser(a, b, 2));
        apply(createBoard(x2, b, 3));

        assertThat(graph.followsBoard(a, x1)).isTrue();
        assertThat(graph.followsBoard(a, x2)).isTrue();
        assertThat(receivers(x2)).containsExactly(a);
        assertThat(graph.counts(a).followingBoards()).as("boards followed explicitly only").isZero();
    }

    @Test
    void unfollowingOneBoardOfAFollowedUserIsAnExceptionForThatBoardOnly() {
        long a = freshId(), b = freshId(), x1 = freshId(), x2 = freshId();
        apply(createBoard(x1, b, 1), createBoard(x2, b, 1), followUser(a, b, 2), unfollowBoard(a, x1, b, 3));

        assertThat(graph.followsBoard(a, x1)).isFalse();
        assertThat(graph.followsBoard(a, x2)).isTrue();
        assertThat(graph.relation(a, b)).isEqualTo(UserRelation.EXPLICIT);
        assertThat(receivers(x1)).isEmpty();
        assertThat(receivers(x2)).containsExactly(a);
        assertThat(graph.boardFollowerCount(x1)).isZero();
        assertThat(graph.boardFollowerCount(x2)).isEqualTo(1);
    }

    @Test
    void receiversSayWhetherTheyFollowTheOwnerOrTheBoard() {
        long a = freshId(), b = freshId(), c = freshId(), d = freshId(), owner = freshId(), x = freshId();
        apply(createBoard(x, owner, 1), followUser(a, owner, 2), followBoard(b, x, owner, 3),
                followUser(c, owner, 4), followBoard(c, x, owner, 5), followUser(d, owner, 6), unfollowBoard(d, x, owner, 7));
        List<Receiver> all = new ArrayList<>();
        String cursor = null;
        do {
            Page<Receiver> page = graph.receivers(x, cursor, 2);
            all.addAll(page.items());
            cursor = page.nextCursor();
        } while (cursor != null);
        assertThat(all).containsExactlyInAnyOrder(new Receiver(a, true), new Receiver(b, false), new Receiver(c, true));
    }

    @Test
    void followingABoardFollowsItsOwnerImplicitly() {
        long a = freshId(), b = freshId(), x1 = freshId(), x2 = freshId();
        apply(createBoard(x1, b, 1), createBoard(x2, b, 1), followBoard(a, x1, b, 5));

        assertThat(graph.relation(a, b)).isEqualTo(UserRelation.IMPLICIT);
        assertThat(graph.followsBoard(a, x1)).isTrue();
        assertThat(graph.followsBoard(a, x2)).isFalse();
        assertThat(graph.counts(a)).isEqualTo(new Counts(0, 0, 0, 1, 1));
        assertThat(graph.counts(b)).isEqualTo(new Counts(0, 1, 0, 0, 0));
        assertThat(graph.followingBoards(a, null, 10).items()).containsExactly(new Edge(x1, T0 + 5, true));
        assertThat(graph.followers(b, null, 10).items()).containsExactly(new Edge(a, T0 + 5, false));
        assertThat(receivers(x1)).containsExactly(a);
    }

    @Test
    void unfollowingTheOnlyFollowedBoardUndoesEverythingItsFollowDid() {
        long a = freshId(), b = freshId(), x1 = freshId();
        apply(followBoard(a, x1, b, 5), unfollowBoard(a, x1, b, 6));

        assertThat(graph.relation(a, b)).isEqualTo(UserRelation.NONE);
        assertThat(graph.followsBoard(a, x1)).isFalse();
        assertThat(graph.counts(a)).isEqualTo(new Counts(0, 0, 0, 0, 0));
        assertThat(graph.counts(b)).isEqualTo(new Counts(0, 0, 0, 0, 0));
        assertThat(receivers(x1)).isEmpty();
    }

    @Test
    void theOwnerStaysImplicitWhileAnotherOfHisBoardsIsFollowed() {
        long a = freshId(), b = freshId(), x1 = freshId(), x2 = freshId();
        apply(followBoard(a, x1, b, 5), followBoard(a, x2, b, 7));
        assertThat(graph.followers(b, null, 10).items()).as("since the earliest board follow")
                .containsExactly(new Edge(a, T0 + 5, false));

        apply(unfollowBoard(a, x1, b, 8));

        assertThat(graph.relation(a, b)).isEqualTo(UserRelation.IMPLICIT);
        assertThat(graph.followingUsers(a, null, 10).items()).containsExactly(new Edge(b, T0 + 7, false));
    }

    @Test
    void unfollowingAUserKeepsTheBoardsFollowedOnTheirOwn() {
        long a = freshId(), b = freshId(), x1 = freshId(), x2 = freshId();
        apply(createBoard(x1, b, 1), createBoard(x2, b, 1), followBoard(a, x1, b, 2), followUser(a, b, 3));
        assertThat(graph.counts(a)).as("explicit hides implicit").isEqualTo(new Counts(0, 0, 1, 0, 1));

        apply(unfollowUser(a, b, 4));

        assertThat(graph.relation(a, b)).isEqualTo(UserRelation.IMPLICIT);
        assertThat(graph.followsBoard(a, x1)).isTrue();
        assertThat(graph.followsBoard(a, x2)).isFalse();
        assertThat(graph.counts(b)).isEqualTo(new Counts(0, 1, 0, 0, 0));
    }

    @Test
    void unfollowingAUserDropsHisBoardExceptions() {
        long a = freshId(), b = freshId(), x1 = freshId();
        apply(createBoard(x1, b, 1), followUser(a, b, 2), unfollowBoard(a, x1, b, 3), unfollowUser(a, b, 4));

        assertThat(graph.followsBoard(a, x1)).isFalse();
        assertThat(receivers(x1)).isEmpty();
        assertThat(graph.relation(a, b)).isEqualTo(UserRelation.NONE);
    }

    @Test
    void followingAUserAgainFollowsBoardsUnfollowedBefore() {
        long a = freshId(), b = freshId(), x1 = freshId();
        apply(createBoard(x1, b, 1), followUser(a, b, 2), unfollowBoard(a, x1, b, 3), unfollowUser(a, b, 4), followUser(a, b, 5));

        assertThat(graph.followsBoard(a, x1)).isTrue();
        assertThat(receivers(x1)).containsExactly(a);
    }

    @Test
    void followingAnExceptedBoardAgainMakesItAnExplicitBoardFollow() {
        long a = freshId(), b = freshId(), x1 = freshId();
        apply(createBoard(x1, b, 1), followUser(a, b, 2), unfollowBoard(a, x1, b, 3), followBoard(a, x1, b, 4));

        assertThat(graph.followsBoard(a, x1)).isTrue();
        assertThat(graph.followingBoards(a, null, 10).items()).containsExactly(new Edge(x1, T0 + 4, true));
        assertThat(receivers(x1)).containsExactly(a);
        assertThat(graph.boardFollowerCount(x1)).isEqualTo(1);
    }

    // ---------------------------------------------------------------- ordering and idempotency

    @Test
    void anOlderUnfollowArrivingLateDoesNotUndoANewerFollow() {
        long a = freshId(), b = freshId();
        apply(followUser(a, b, 20), unfollowUser(a, b, 10));

        assertThat(graph.relation(a, b)).isEqualTo(UserRelation.EXPLICIT);
        assertThat(graph.followers(b, null, 10).items()).containsExactly(new Edge(a, T0 + 20, true));
    }

    @Test
    void anOlderFollowArrivingLateDoesNotUndoANewerUnfollow() {
        long a = freshId(), b = freshId(), x = freshId();
        apply(unfollowUser(a, b, 20), followUser(a, b, 10), unfollowBoard(a, x, b, 30), followBoard(a, x, b, 25));

        assertThat(graph.relation(a, b)).isEqualTo(UserRelation.NONE);
        assertThat(graph.followsBoard(a, x)).isFalse();
        assertThat(graph.counts(b)).isEqualTo(new Counts(0, 0, 0, 0, 0));
    }

    @Test
    void anExceptionDependsOnEventTimeNotArrivalOrder() {
        long a = freshId(), b = freshId(), x = freshId(), c = freshId();
        // a: follow b, then unfollow x (exception) — delivered backwards.
        apply(unfollowBoard(a, x, b, 3), followUser(a, b, 2));
        // c: unfollow x, then follow b (no exception: the newer user follow covers every board) — delivered backwards.
        apply(followUser(c, b, 5), unfollowBoard(c, x, b, 4));

        assertThat(graph.followsBoard(a, x)).isFalse();
        assertThat(graph.followsBoard(c, x)).isTrue();
        assertThat(receivers(x)).containsExactly(c);
    }

    @Test
    void duplicatesChangeNothing() {
        long a = freshId(), b = freshId(), x = freshId();
        GraphCommand follow = followBoard(a, x, b, 5);
        GraphCommand create = createBoard(x, b, 1);
        apply(create, follow, follow, create, followUser(a, b, 6));
        apply(follow);

        assertThat(graph.counts(a)).isEqualTo(new Counts(0, 0, 1, 0, 1));
        assertThat(graph.boardsOf(b, null, 10).items()).containsExactly(new Edge(x, T0 + 1, true));
        assertThat(graph.boardsOwnedCount(b)).isEqualTo(1);
        assertThat(graph.followingBoards(a, null, 10).items()).containsExactly(new Edge(x, T0 + 5, true));
    }

    @Test
    void aBoardKeepsItsEarliestCreationTime() {
        long b = freshId(), x = freshId();
        apply(createBoard(x, b, 9), createBoard(x, b, 4), createBoard(x, b, 7));

        assertThat(graph.boardsOf(b, null, 10).items()).containsExactly(new Edge(x, T0 + 4, true));
        assertThat(graph.boardOwner(x)).hasValue(b);
    }

    @Test
    void aSecondOwnerForABoardIsRejectedAndLeavesNoTrace() {
        long a = freshId(), b = freshId(), c = freshId(), x = freshId();
        apply(createBoard(x, b, 1));

        assertThatThrownBy(() -> graph.apply(followBoard(a, x, c, 2))).isInstanceOf(InvalidCommandException.class);
        assertThatThrownBy(() -> graph.apply(createBoard(x, c, 3))).isInstanceOf(InvalidCommandException.class);
        assertThat(graph.relation(a, c)).isEqualTo(UserRelation.NONE);
        assertThat(graph.followsBoard(a, x)).isFalse();
        assertThat(graph.boardOwner(x)).hasValue(b);
        assertThat(graph.boardsOf(c, null, 10).items()).isEmpty();
        assertThat(graph.boardsOwnedCount(c)).isZero();
    }

    @Test
    void aFollowOrUnfollowNamesTheOwnerOfABoardNotCreatedYet() {
        long a = freshId(), b = freshId(), x = freshId();
        apply(followBoard(a, x, b, 2));

        assertThat(graph.boardOwner(x)).hasValue(b);
        assertThat(graph.boardsOf(b, null, 10).items()).as("only BoardCreated lists a board").isEmpty();
        apply(createBoard(x, b, 1));
        assertThat(graph.boardsOf(b, null, 10).items()).containsExactly(new Edge(x, T0 + 1, true));
    }

    // ---------------------------------------------------------------- batch queries

    @Test
    void whichOfTheseUsersDoIFollow() {
        long a = freshId(), b = freshId(), c = freshId(), d = freshId(), x = freshId();
        apply(followUser(a, b, 1), followBoard(a, x, c, 2), followUser(d, a, 3));

        assertThat(graph.followedAmong(a, List.of(b, c, d, a, freshId()))).containsExactlyInAnyOrder(b, c);
        assertThat(graph.followedAmong(a, List.of())).isEmpty();
        List<Long> tooMany = LongStream.rangeClosed(1, GraphStore.MAX_BATCH + 1).boxed().toList();
        assertThatThrownBy(() -> graph.followedAmong(a, tooMany)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void whichOfTheseBoardsDoIFollow() {
        long a = freshId(), b = freshId(), c = freshId();
        long x1 = freshId(), x2 = freshId(), y1 = freshId(), y2 = freshId(), unknown = freshId();
        apply(createBoard(x1, b, 1), createBoard(x2, b, 1), createBoard(y1, c, 1), createBoard(y2, c, 1),
                followUser(a, b, 2), unfollowBoard(a, x2, b, 3), followBoard(a, y2, c, 4));

        assertThat(graph.followedBoardsAmong(a, List.of(x1, x2, y1, y2, unknown))).containsExactlyInAnyOrder(x1, y2);
        assertThat(graph.followsBoard(a, unknown)).isFalse();
        assertThat(graph.boardOwner(unknown)).isEmpty();
    }

    // ---------------------------------------------------------------- paging

    @Test
    void listsPageNewestFirstWithTiesInNumericIdOrder() {
        long b = freshId();
        long base = freshId() % 1_000_000_000L * 100;
        List<Edge> expected = new ArrayList<>();
        List<GraphCommand> commands = new ArrayList<>();
        // Ids of different lengths share times: Redis orders equal scores as strings, "10…" before "9…".
        for (int i = 0; i < 23; i++) {
            long follower = i % 2 == 0 ? 9_000_000_000_000L + base + i : 10_000_000_000_000L + base + i;
            long at = i < 7 ? 9 : i / 4; // the newest group is larger than a page
            commands.add(followUser(follower, b, at));
            expected.add(new Edge(follower, T0 + at, true));
        }
        for (int i = 0; i < 5; i++) {
            long follower = 100_000_000_000_000L + base + i;
            long at = i;
            commands.add(followBoard(follower, freshId(), b, at));
            expected.add(new Edge(follower, T0 + at, false));
        }
        apply(commands.toArray(GraphCommand[]::new));
        expected.sort(Comparator.comparingLong(Edge::since).thenComparingLong(Edge::id).reversed());

        List<List<Edge>> pages = new ArrayList<>();
        String cursor = null;
        do {
            Page<Edge> page = graph.followers(b, cursor, 4);
            pages.add(page.items());
            cursor = page.nextCursor();
        } while (cursor != null);

        assertThat(pages.stream().flatMap(List::stream).toList()).containsExactlyElementsOf(expected);
        assertThat(pages).hasSize(7);
        assertThat(pages.subList(0, 6)).allSatisfy(p -> assertThat(p).hasSize(4));
        assertThat(graph.counts(b).followers()).isEqualTo(28);
    }

    @Test
    void aPageThatEndsTheListHasNoCursor() {
        long a = freshId(), b = freshId(), c = freshId();
        apply(followUser(a, b, 1), followUser(a, c, 2));

        Page<Edge> all = graph.followingUsers(a, null, 2);
        assertThat(all.items()).hasSize(2);
        assertThat(all.hasMore()).isFalse();
        Page<Edge> first = graph.followingUsers(a, null, 1);
        assertThat(first.items()).containsExactly(new Edge(c, T0 + 2, true));
        assertThat(graph.followingUsers(a, first.nextCursor(), 1)).isEqualTo(new Page<>(List.of(new Edge(b, T0 + 1, true)), null));
        assertThat(graph.followingUsers(freshId(), null, 5)).isEqualTo(new Page<>(List.of(), null));
    }

    @Test
    void aCursorSurvivesTheRemovalOfItsOwnItem() {
        long b = freshId(), a1 = freshId(), a2 = freshId(), a3 = freshId();
        apply(followUser(a1, b, 3), followUser(a2, b, 2), followUser(a3, b, 1));
        Page<Edge> first = graph.followers(b, null, 1);
        apply(unfollowUser(a1, b, 4));

        assertThat(graph.followers(b, first.nextCursor(), 5).items()).extracting(Edge::id).containsExactly(a2, a3);
    }

    @Test
    void receiversAreTheOwnersFollowersMinusUnfollowersPlusTheBoardsFollowersEachOnce() {
        long owner = freshId(), x = freshId(), other = freshId();
        apply(createBoard(x, owner, 1), createBoard(other, owner, 1));
        Set<Long> expected = new HashSet<>();
        for (int i = 0; i < 17; i++) {
            long f = freshId();
            apply(followUser(f, owner, 10 + i % 3));
            if (i % 5 == 0) {
                apply(unfollowBoard(f, x, owner, 20));
            } else {
                expected.add(f);
            }
            if (i % 4 == 0) apply(followBoard(f, x, owner, 30)); // both explicit ways: listed once
            if (i % 4 == 0) expected.add(f);
        }
        for (int i = 0; i < 9; i++) {
            long f = freshId();
            apply(followBoard(f, x, owner, 40 + i));
            expected.add(f);
            apply(followBoard(freshId(), other, owner, 40)); // another board's follower: not a receiver
        }

        for (int limit : new int[] {1, 4, 100}) {
            List<Long> all = new ArrayList<>();
            String cursor = null;
            do {
                Page<Long> page = graph.boardReceivers(x, cursor, limit);
                all.addAll(page.items());
                cursor = page.nextCursor();
            } while (cursor != null);
            assertThat(all).as("limit " + limit).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(expected);
        }
        assertThat(graph.boardFollowerCount(x)).isEqualTo(expected.size());
        assertThat(graph.boardReceivers(freshId(), null, 10)).isEqualTo(new Page<>(List.of(), null));
    }

    @Test
    void boardsOfAUserNewestFirst() {
        long b = freshId(), x1 = freshId(), x2 = freshId(), x3 = freshId();
        apply(createBoard(x2, b, 2), createBoard(x1, b, 1), createBoard(x3, b, 3));

        Page<Edge> first = graph.boardsOf(b, null, 2);
        assertThat(first.items()).extracting(Edge::id).containsExactly(x3, x2);
        assertThat(graph.boardsOf(b, first.nextCursor(), 2).items()).extracting(Edge::id).containsExactly(x1);
    }

    @Test
    void badCursorsAndLimitsAreRejected() {
        long a = freshId();
        assertThatThrownBy(() -> graph.followers(a, "not a cursor!", 10)).isInstanceOf(InvalidCursorException.class);
        assertThatThrownBy(() -> graph.followers(a, null, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> graph.followers(a, null, GraphStore.MAX_PAGE + 1)).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Cursors no store issues for the query: not base64, a position of another kind (or of no kind),
     * a position whose values are not numbers or are missing. Built by hand on purpose: stores never
     * make them. Valid for no store, whatever its positions ("i|" is the model's receivers position,
     * so it stays out of the receivers list).
     */
    private static final List<String> BAD_LIST_CURSORS = List.of("not a cursor!", "%%%", encoded(""), encoded("x|1|2"),
            encoded("e|1|2"), encoded("h|0"), encoded("i|5"), encoded("s|x|2"), encoded("s|1|y"), encoded("s|1"), encoded("s|1|2|3"),
            encoded("s||"));
    private static final List<String> BAD_RECEIVER_CURSORS = List.of("not a cursor!", "%%%", encoded(""), encoded("x|1|2"),
            encoded("s|1|2"), encoded("e|x|2"), encoded("e|1"), encoded("h|x"), encoded("h|"), encoded("h|-1"),
            encoded("h|99999999999999999999999"), encoded("i|x"));

    private static String encoded(String position) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(position.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void everyPagingQueryRefusesEveryBadCursorAsAnInvalidCursor() {
        long a = freshId(), b = freshId(), c = freshId(), x = freshId();
        apply(createBoard(x, b, 1), followUser(a, b, 2), followBoard(c, x, b, 3));
        Map<String, Function<String, Page<?>>> lists = new LinkedHashMap<>();
        lists.put("followers", cursor -> graph.followers(b, cursor, 10));
        lists.put("followingUsers", cursor -> graph.followingUsers(a, cursor, 10));
        lists.put("followingBoards", cursor -> graph.followingBoards(c, cursor, 10));
        lists.put("boardsOf", cursor -> graph.boardsOf(b, cursor, 10));

        SoftAssertions soft = new SoftAssertions();
        for (var query : lists.entrySet()) {
            for (String cursor : BAD_LIST_CURSORS) {
                soft.assertThatThrownBy(() -> query.getValue().apply(cursor)).as("%s(cursor %s)", query.getKey(), cursor)
                        .isInstanceOf(InvalidCursorException.class);
            }
        }
        for (String cursor : BAD_RECEIVER_CURSORS) {
            soft.assertThatThrownBy(() -> graph.boardReceivers(x, cursor, 10)).as("boardReceivers(cursor %s)", cursor)
                    .isInstanceOf(InvalidCursorException.class);
        }
        soft.assertThatThrownBy(() -> graph.boardReceivers(freshId(), encoded("s|1|2"), 10)).as("a board without owner")
                .isInstanceOf(InvalidCursorException.class);
        soft.assertAll();
    }

    // ---------------------------------------------------------------- interests

    @Test
    void followingAnInterestShowsOnBothSidesAndPagesNewestFirst() {
        long a = freshId(), b = freshId(), c = freshId(), wood = freshId(), clay = freshId();
        apply(followInterest(a, wood, 10), followInterest(b, wood, 30), followInterest(c, wood, 20), followInterest(a, clay, 40));

        assertThat(graph.followsInterest(a, wood)).isTrue();
        assertThat(graph.followsInterest(b, clay)).isFalse();
        assertThat(graph.followingInterests(a, null, 10).items()).containsExactly(new Edge(clay, T0 + 40, true), new Edge(wood, T0 + 10, true));
        assertThat(graph.followingInterestsCount(a)).isEqualTo(2);
        assertThat(graph.interestFollowerCount(wood)).isEqualTo(3);
        Page<Edge> first = graph.interestFollowers(wood, null, 2);
        assertThat(first.items()).containsExactly(new Edge(b, T0 + 30, true), new Edge(c, T0 + 20, true));
        assertThat(graph.interestFollowers(wood, first.nextCursor(), 2).items()).containsExactly(new Edge(a, T0 + 10, true));
        assertThat(graph.interestFollowers(wood, first.nextCursor(), 2).nextCursor()).isNull();
        assertThat(graph.counts(a)).as("interests are not users or boards").isEqualTo(new Counts(0, 0, 0, 0, 0));
    }

    @Test
    void whichOfTheseFollowAnInterestAndWhichReceiveABoardsPins() {
        long owner = freshId(), board = freshId(), viaOwner = freshId(), viaBoard = freshId(), unfollowedBoard = freshId(), stranger = freshId();
        long wood = freshId();
        apply(createBoard(board, owner, 1), followUser(viaOwner, owner, 2), followBoard(viaBoard, board, owner, 3),
                followUser(unfollowedBoard, owner, 4), unfollowBoard(unfollowedBoard, board, owner, 5),
                followInterest(viaOwner, wood, 6), followInterest(stranger, wood, 7));

        List<Long> everyone = List.of(viaOwner, viaBoard, unfollowedBoard, stranger, owner);
        assertThat(graph.boardReceiversAmong(board, everyone)).containsExactlyInAnyOrder(viaOwner, viaBoard);
        assertThat(graph.interestFollowersAmong(wood, everyone)).containsExactlyInAnyOrder(viaOwner, stranger);
        assertThat(graph.boardReceiversAmong(freshId(), everyone)).as("a board nobody created").isEmpty();
        assertThat(graph.interestFollowersAmong(wood, List.of())).isEmpty();
    }

    @Test
    void anInterestEdgeIsLastWriterWinsWhateverTheArrivalOrderAndDuplicatesChangeNothing() {
        long a = freshId(), b = freshId(), wood = freshId();
        GraphCommand follow = followInterest(a, wood, 10);
        GraphCommand unfollow = unfollowInterest(a, wood, 20);
        apply(unfollow, follow, follow, unfollow);
        apply(followInterest(b, wood, 20), unfollowInterest(b, wood, 10));

        assertThat(graph.followsInterest(a, wood)).isFalse();
        assertThat(graph.followingInterestsCount(a)).isZero();
        assertThat(graph.followsInterest(b, wood)).isTrue();
        assertThat(graph.interestFollowers(wood, null, 10).items()).containsExactly(new Edge(b, T0 + 20, true));

        apply(followInterest(a, wood, 30));
        assertThat(graph.interestFollowers(wood, null, 10).items()).containsExactly(new Edge(a, T0 + 30, true), new Edge(b, T0 + 20, true));
        assertThat(graph.interestFollowerCount(wood)).isEqualTo(2);
    }

    // ---------------------------------------------------------------- batches (applyAll)

    @Test
    void aBatchEndsAsItsCommandsOneByOneSamePairsIncluded() {
        long a = freshId(), b = freshId(), c = freshId(), x1 = freshId(), x2 = freshId(), interest = freshId();
        List<GraphCommand> batch = List.of(
                createBoard(x1, b, 1), followUser(a, b, 2), followBoard(a, x2, b, 3), unfollowBoard(a, x1, b, 4),
                unfollowUser(a, b, 5), followUser(a, b, 6), // one pair four times in one batch: the newest follow covers x1 again
                followUser(c, b, 7), unfollowUser(c, b, 3), // an older unfollow after a newer follow changes nothing
                followBoard(c, x1, b, 8), unfollowBoard(c, x1, b, 9), // c's board follow undone: c stays an explicit follower of b
                followInterest(a, interest, 8), unfollowInterest(a, interest, 9), followInterest(a, interest, 7),
                createBoard(x2, b, 10), followBoard(a, x2, b, 3)); // a duplicate

        List<CommandOutcome> outcomes = graph.applyAll(batch);

        assertThat(outcomes).extracting(CommandOutcome::command).containsExactlyElementsOf(batch);
        assertThat(outcomes).allMatch(CommandOutcome::isApplied);
        assertThat(graph.relation(a, b)).isEqualTo(UserRelation.EXPLICIT);
        assertThat(graph.followsBoard(a, x1)).as("the newer user follow drops the older exception").isTrue();
        assertThat(graph.followsBoard(a, x2)).isTrue();
        assertThat(graph.followsBoard(c, x1)).as("unfollowed after c's user follow: an exception").isFalse();
        assertThat(graph.counts(a)).isEqualTo(new Counts(0, 0, 1, 0, 1));
        assertThat(graph.counts(b)).isEqualTo(new Counts(2, 0, 0, 0, 0));
        assertThat(graph.followsInterest(a, interest)).isFalse();
        assertThat(graph.boardsOf(b, null, 10).items()).extracting(Edge::id).containsExactly(x2, x1);
        assertThat(receivers(x1)).containsExactly(a);

        GraphStore oneByOne = newStore();
        try {
            batch.forEach(oneByOne::apply);
            GraphAssertions.assertSameGraph(oneByOne, graph, List.of(a, b, c), List.of(x1, x2), 2);
        } finally {
            oneByOne.close();
        }
    }

    @Test
    void aRefusedBoardClaimFailsItsCommandAloneAndABatchReplaysToTheSameGraph() {
        long a = freshId(), b = freshId(), c = freshId(), x = freshId(), y = freshId();
        List<GraphCommand> batch = List.of(createBoard(x, b, 1), followBoard(a, x, c, 2), followBoard(a, x, b, 3),
                createBoard(y, c, 4), followUser(a, c, 5));

        List<CommandOutcome> outcomes = graph.applyAll(batch);

        assertThat(outcomes).extracting(CommandOutcome::isApplied).containsExactly(true, false, true, true, true);
        assertThat(outcomes.get(1).isInvalid()).isTrue();
        assertThat(outcomes.get(1).failure()).hasMessageContaining("belongs to " + b);
        assertThat(graph.boardOwner(x)).hasValue(b);
        assertThat(graph.followsBoard(a, x)).isTrue();
        assertThat(graph.relation(a, b)).isEqualTo(UserRelation.IMPLICIT);
        assertThat(graph.relation(a, c)).isEqualTo(UserRelation.EXPLICIT);
        assertThat(graph.followsBoard(a, y)).isTrue();

        GraphStore once = newStore();
        try {
            once.applyAll(batch);
            assertThat(graph.applyAll(batch)).as("redelivered: the same outcomes")
                    .extracting(CommandOutcome::isApplied).containsExactly(true, false, true, true, true);
            GraphAssertions.assertSameGraph(once, graph, List.of(a, b, c), List.of(x, y), 2);
        } finally {
            once.close();
        }
    }

    /** Hundreds of commands of a few pairs: a store that splits a batch (Redis: 64 items per script call) must split it invisibly. */
    @Test
    void aLongBatchOfFewPairsEndsAsItsCommandsOneByOne() {
        List<Long> users = java.util.stream.LongStream.range(0, 5).map(i -> freshId()).boxed().toList();
        List<Long> boards = new java.util.ArrayList<>();
        List<GraphCommand> batch = new java.util.ArrayList<>();
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        for (long owner : users) {
            long board = freshId();
            boards.add(board);
            batch.add(createBoard(board, owner, 1));
        }
        for (int i = 0; i < 400; i++) {
            int a = random.nextInt(users.size()), o = random.nextInt(users.size() - 1);
            if (o >= a) o++; // nobody follows himself
            long at = 2 + random.nextInt(300); // versions repeat and go back: replays and reordering inside the batch
            batch.add(switch (random.nextInt(4)) {
                case 0 -> followUser(users.get(a), users.get(o), at);
                case 1 -> unfollowUser(users.get(a), users.get(o), at);
                case 2 -> followBoard(users.get(a), boards.get(o), users.get(o), at);
                default -> unfollowBoard(users.get(a), boards.get(o), users.get(o), at);
            });
        }

        assertThat(graph.applyAll(batch)).allMatch(CommandOutcome::isApplied);

        GraphStore oneByOne = newStore();
        try {
            batch.forEach(oneByOne::apply);
            GraphAssertions.assertSameGraph(oneByOne, graph, users, boards, 3);
        } finally {
            oneByOne.close();
        }
    }

    @Test
    void anEmptyBatchDoesNothing() {
        assertThat(graph.applyAll(List.of())).isEmpty();
    }

    // ---------------------------------------------------------------- helpers

    protected void apply(GraphCommand... commands) {
        for (GraphCommand c : commands) graph.apply(c);
    }

    private List<Long> receivers(long board) {
        List<Long> all = new ArrayList<>();
        String cursor = null;
        do {
            Page<Long> page = graph.boardReceivers(board, cursor, 3);
            all.addAll(page.items());
            cursor = page.nextCursor();
        } while (cursor != null);
        return all;
    }

    private long nextEventId() {
        return ++eventIds;
    }

    protected FollowUser followUser(long a, long b, long at) {
        return new FollowUser(nextEventId(), T0 + at, a, b);
    }

    protected UnfollowUser unfollowUser(long a, long b, long at) {
        return new UnfollowUser(nextEventId(), T0 + at, a, b);
    }

    protected FollowBoard followBoard(long a, long board, long owner, long at) {
        return new FollowBoard(nextEventId(), T0 + at, a, board, owner);
    }

    protected UnfollowBoard unfollowBoard(long a, long board, long owner, long at) {
        return new UnfollowBoard(nextEventId(), T0 + at, a, board, owner);
    }

    protected GraphCommand.FollowInterest followInterest(long a, long interest, long at) {
        return new GraphCommand.FollowInterest(nextEventId(), T0 + at, a, interest);
    }

    protected GraphCommand.UnfollowInterest unfollowInterest(long a, long interest, long at) {
        return new GraphCommand.UnfollowInterest(nextEventId(), T0 + at, a, interest);
    }

    protected CreateBoard createBoard(long board, long owner, long at) {
        return new CreateBoard(nextEventId(), T0 + at, board, owner);
    }
}
