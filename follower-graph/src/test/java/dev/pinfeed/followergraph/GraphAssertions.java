package dev.pinfeed.followergraph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.assertj.core.api.SoftAssertions;

/** Two graphs are equal when every query answers the same, page by page. */
public final class GraphAssertions {

    private GraphAssertions() {}

    public static void assertSameGraph(GraphStore expected, GraphStore actual, List<Long> users, List<Long> boards, int pageSize) {
        SoftAssertions soft = new SoftAssertions();
        List<Long> unknownBoard = List.of(424242L);
        for (long u : users) {
            for (long v : users) {
                soft.assertThat(actual.relation(u, v)).as("relation(%d, %d)", u, v).isEqualTo(expected.relation(u, v));
            }
            for (long x : boards) {
                soft.assertThat(actual.followsBoard(u, x)).as("followsBoard(%d, %d)", u, x).isEqualTo(expected.followsBoard(u, x));
            }
            soft.assertThat(actual.followedAmong(u, users)).as("followedAmong(%d)", u).isEqualTo(expected.followedAmong(u, users));
            List<Long> boardsAndUnknown = new ArrayList<>(boards);
            boardsAndUnknown.addAll(unknownBoard);
            soft.assertThat(actual.followedBoardsAmong(u, boardsAndUnknown)).as("followedBoardsAmong(%d)", u)
                    .isEqualTo(expected.followedBoardsAmong(u, boardsAndUnknown));
            soft.assertThat(actual.counts(u)).as("counts(%d)", u).isEqualTo(expected.counts(u));
            soft.assertThat(actual.boardsOwnedCount(u)).as("boardsOwnedCount(%d)", u).isEqualTo(expected.boardsOwnedCount(u));
            soft.assertThat(pages(c -> actual.followers(u, c, pageSize))).as("followers(%d)", u)
                    .isEqualTo(pages(c -> expected.followers(u, c, pageSize)));
            soft.assertThat(pages(c -> actual.followingUsers(u, c, pageSize))).as("followingUsers(%d)", u)
                    .isEqualTo(pages(c -> expected.followingUsers(u, c, pageSize)));
            soft.assertThat(pages(c -> actual.followingBoards(u, c, pageSize))).as("followingBoards(%d)", u)
                    .isEqualTo(pages(c -> expected.followingBoards(u, c, pageSize)));
            soft.assertThat(pages(c -> actual.boardsOf(u, c, pageSize))).as("boardsOf(%d)", u)
                    .isEqualTo(pages(c -> expected.boardsOf(u, c, pageSize)));
        }
        for (long x : boards) {
            soft.assertThat(actual.boardOwner(x)).as("boardOwner(%d)", x).isEqualTo(expected.boardOwner(x));
            List<Long> got = receivers(actual, x, pageSize);
            soft.assertThat(got).as("receivers(%d) without duplicates", x).doesNotHaveDuplicates();
            soft.assertThat(got).as("receivers(%d)", x).containsExactlyInAnyOrderElementsOf(receivers(expected, x, pageSize));
            soft.assertThat(actual.boardFollowerCount(x)).as("boardFollowerCount(%d)", x).isEqualTo(expected.boardFollowerCount(x));
        }
        soft.assertAll();
    }

    /** Every page's items, in order; the last page's cursor must be null (checked by the loop ending). */
    public static <T> List<List<T>> pages(Function<String, Page<T>> fetch) {
        List<List<T>> out = new ArrayList<>();
        String cursor = null;
        do {
            Page<T> page = fetch.apply(cursor);
            out.add(page.items());
            cursor = page.nextCursor();
            assertThat(out).as("runaway paging").hasSizeLessThan(10_000);
        } while (cursor != null);
        return out;
    }

    public static List<Long> receivers(GraphStore g, long board, int pageSize) {
        List<Long> all = new ArrayList<>();
        pages(c -> g.boardReceivers(board, c, pageSize)).forEach(all::addAll);
        return all;
    }
}
