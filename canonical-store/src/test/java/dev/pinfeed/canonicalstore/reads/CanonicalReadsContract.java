package dev.pinfeed.canonicalstore.reads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** What every {@link CanonicalReads} does; run over the in-memory store, MySQL, and the caches in front of MySQL. */
public abstract class CanonicalReadsContract {

    protected static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

    protected abstract CanonicalReads reads();

    /** Writes into the store {@link #reads()} reads. */
    protected abstract CanonicalSeed seed();

    /** A local id no other test (or run) used. */
    protected abstract long freshLocal();

    protected long newUser() {
        long local = freshLocal();
        long id = ShardedId.compose((int) (local % 4096), ObjectType.USER, local);
        seed().user(id, "u" + Long.toString(local, 36), "User " + local, T0);
        return id;
    }

    protected long newBoard(long owner) {
        long id = ShardedId.compose(ShardedId.decode(owner).shard(), ObjectType.BOARD, freshLocal());
        seed().board(id, owner, "board", null, T0 + 1);
        return id;
    }

    protected long newPin(long board, long author, long createdAt) {
        long id = ShardedId.compose(ShardedId.decode(board).shard(), ObjectType.PIN, freshLocal());
        seed().pin(id, board, author, "pin " + id, "https://example.com/" + id, null, createdAt);
        return id;
    }

    private static <T> List<Long> ids(List<T> items, Function<T, Long> id) {
        return items.stream().map(id).toList();
    }

    /** Every page of a board's pins by cursor, running {@code between} before each further page. */
    protected List<Long> allByCursor(long board, BoardPinOrder order, int limit, Runnable between) {
        List<Long> seen = new ArrayList<>();
        String cursor = null;
        do {
            ListPage<CanonicalPin> page = reads().boardPins(board, order, 0, cursor, limit);
            seen.addAll(ids(page.items(), CanonicalPin::id));
            cursor = page.cursor();
            if (cursor != null) between.run();
        } while (cursor != null);
        return seen;
    }

    @Test
    void objectsReadBackAsStoredWithTheirLikeCount() {
        long ana = newUser();
        long ben = newUser();
        long board = ShardedId.compose(ShardedId.decode(ana).shard(), ObjectType.BOARD, freshLocal());
        seed().board(board, ana, "Recipes", "what I cook", T0 + 5);
        long pin = ShardedId.compose(ShardedId.decode(board).shard(), ObjectType.PIN, freshLocal());
        seed().pin(pin, board, ana, "soup", "https://soup.example", "https://img.example/soup.png", T0 + 10);
        seed().like(ana, pin, T0 + 20, true);
        seed().like(ben, pin, T0 + 21, true);

        CanonicalUser user = reads().user(ana).orElseThrow();
        assertThat(user.id()).isEqualTo(ana);
        assertThat(user.displayName()).isEqualTo("User " + ShardedId.decode(ana).localId());
        assertThat(user.createdAt()).isEqualTo(Instant.ofEpochMilli(T0));
        assertThat(reads().userByUsername(user.username())).contains(user);
        assertThat(reads().board(board)).contains(new CanonicalBoard(board, ana, "Recipes", "what I cook", Instant.ofEpochMilli(T0 + 5)));
        assertThat(reads().pin(pin)).contains(new CanonicalPin(pin, board, ana, "soup", "https://soup.example",
                "https://img.example/soup.png", Instant.ofEpochMilli(T0 + 10), 2, 0, null, 0, List.of()));

        long unknownUser = ShardedId.compose(ShardedId.decode(ana).shard(), ObjectType.USER, freshLocal());
        assertThat(reads().user(unknownUser)).isEmpty();
        assertThat(reads().userByUsername("nobody" + freshLocal())).isEmpty();
        assertThat(reads().board(ShardedId.compose(3, ObjectType.BOARD, freshLocal()))).isEmpty();
        assertThat(reads().pin(ShardedId.compose(3, ObjectType.PIN, freshLocal()))).isEmpty();
    }

    @Test
    void anInterestReadsBackWithItsPinsNewestFirstLeavingOutDeletedOnesAndTheirCount() {
        long ana = newUser();
        long board = newBoard(ana);
        long interest = ShardedId.compose(ShardedId.decode(ana).shard(), ObjectType.INTEREST, freshLocal());
        seed().interest(interest, "woodworking", T0 + 3);
        List<Long> pins = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            long pin = newPin(board, ana, T0 + 100 + i);
            seed().tagPin(interest, pin, T0 + 100 + i);
            pins.add(pin);
        }
        long untagged = newPin(board, ana, T0 + 200);
        seed().deletePin(pins.get(1));

        assertThat(reads().interest(interest)).contains(new CanonicalInterest(interest, "woodworking", Instant.ofEpochMilli(T0 + 3)));
        assertThat(reads().interest(ShardedId.compose(2, ObjectType.INTEREST, freshLocal()))).isEmpty();
        ListPage<CanonicalPin> first = reads().interestPins(interest, null, 2);
        assertThat(ids(first.items(), CanonicalPin::id)).containsExactly(pins.get(4), pins.get(3));
        List<Long> rest = new ArrayList<>();
        for (String cursor = first.cursor(); cursor != null; ) {
            ListPage<CanonicalPin> page = reads().interestPins(interest, cursor, 2);
            rest.addAll(ids(page.items(), CanonicalPin::id));
            cursor = page.cursor();
        }
        assertThat(rest).as("the deleted pin left out, the untagged one never there").containsExactly(pins.get(2), pins.get(0))
                .doesNotContain(untagged);
        assertThat(reads().interestPinCount(interest)).as("live pins only").isEqualTo(4);
    }

    @Test
    void deletedPinsAreNeverReturned() {
        long ana = newUser();
        long board = newBoard(ana);
        long kept = newPin(board, ana, T0 + 1);
        long gone = newPin(board, ana, T0 + 2);
        seed().reorder(board, List.of(gone, kept));
        seed().deletePin(gone);

        assertThat(reads().pin(gone)).isEmpty();
        assertThat(reads().pin(kept)).isPresent();
        for (BoardPinOrder order : BoardPinOrder.values()) {
            assertThat(ids(reads().boardPins(board, order, 0, null, 10).items(), CanonicalPin::id)).as(order.wireName()).containsExactly(kept);
        }
        assertThat(ids(reads().userPins(ana, null, 10).items(), CanonicalPin::id)).containsExactly(kept);
        assertThat(reads().pinCount(ana)).isEqualTo(1);
    }

    @Test
    void livePinsReadsABatchLeavingOutDeletedAndUnknownPins() {
        long ana = newUser();
        long board = newBoard(ana);
        long kept = newPin(board, ana, T0 + 1);
        long gone = newPin(board, ana, T0 + 2);
        long other = newPin(newBoard(newUser()), ana, T0 + 3);
        seed().deletePin(gone);
        long unknown = ShardedId.compose(7, ObjectType.PIN, freshLocal());

        java.util.Map<Long, CanonicalPin> pins = reads().livePins(List.of(other, gone, unknown, kept, other));
        assertThat(pins).containsOnlyKeys(other, kept);
        assertThat(pins.get(kept)).isEqualTo(reads().pin(kept).orElseThrow());
        assertThat(reads().livePins(List.of())).isEmpty();
    }

    @Test
    void boardPinsPageNewestFirstByOffsetAndByCursorsThatNewPinsDoNotShift() {
        long ana = newUser();
        long board = newBoard(ana);
        List<Long> pins = new ArrayList<>();
        for (int i = 0; i < 60; i++) pins.add(newPin(board, ana, T0 + 1_000 + i));
        List<Long> newestFirst = new ArrayList<>(pins);
        java.util.Collections.reverse(newestFirst);

        List<Long> byOffset = new ArrayList<>();
        for (int offset = 0; offset < 60; offset += 25) {
            ListPage<CanonicalPin> page = reads().boardPins(board, BoardPinOrder.NEWEST, offset, null, 25);
            byOffset.addAll(ids(page.items(), CanonicalPin::id));
            assertThat(page.cursor() == null).isEqualTo(offset + 25 >= 60);
        }
        assertThat(byOffset).isEqualTo(newestFirst);

        long[] t = {T0 + 5_000};
        List<Long> added = new ArrayList<>();
        List<Long> byCursor = allByCursor(board, BoardPinOrder.NEWEST, 25, () -> added.add(newPin(board, ana, t[0]++)));
        assertThat(added).hasSize(2);
        assertThat(byCursor).as("no duplicate, no skip, new pins sort before the cursor").isEqualTo(newestFirst);
        assertThat(ids(reads().boardPins(board, BoardPinOrder.NEWEST, 0, null, 2).items(), CanonicalPin::id))
                .containsExactly(added.get(1), added.get(0));
    }

    @Test
    void customOrderPutsPinsTheOrderDoesNotListFirstNewestFirst() {
        long ana = newUser();
        long board = newBoard(ana);
        List<Long> p = new ArrayList<>();
        for (int i = 0; i < 6; i++) p.add(newPin(board, ana, T0 + 100 + i)); // p0 oldest .. p5 newest
        seed().reorder(board, List.of(p.get(3), p.get(1), p.get(5)));
        long later = newPin(board, ana, T0 + 200);
        List<Long> expected = List.of(later, p.get(4), p.get(2), p.get(0), p.get(3), p.get(1), p.get(5));

        assertThat(ids(reads().boardPins(board, BoardPinOrder.CUSTOM, 0, null, 10).items(), CanonicalPin::id)).isEqualTo(expected);
        assertThat(ids(reads().boardPins(board, BoardPinOrder.CUSTOM, 3, null, 2).items(), CanonicalPin::id))
                .isEqualTo(expected.subList(3, 5));
        long[] t = {T0 + 300};
        assertThat(allByCursor(board, BoardPinOrder.CUSTOM, 2, () -> newPin(board, ana, t[0]++)))
                .as("pages across the unlisted and the listed pins, with pins added between pages").isEqualTo(expected);
    }

    @Test
    void aUsersBoardsAndPinsNewestFirst() {
        long ana = newUser();
        long ben = newUser();
        List<Long> boards = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            long b = ShardedId.compose(ShardedId.decode(ana).shard(), ObjectType.BOARD, freshLocal());
            seed().board(b, ana, "b" + i, null, T0 + i);
            boards.add(b);
        }
        long bensBoard = newBoard(ben);
        long own = newPin(boards.get(0), ana, T0 + 10);
        long onBens = newPin(bensBoard, ana, T0 + 11); // the pin lives on Ben's board's shard, listed under Ana
        newPin(bensBoard, ben, T0 + 12);

        ListPage<CanonicalBoard> first = reads().userBoards(ana, null, 2);
        assertThat(ids(first.items(), CanonicalBoard::id)).containsExactly(boards.get(2), boards.get(1));
        ListPage<CanonicalBoard> second = reads().userBoards(ana, first.cursor(), 2);
        assertThat(ids(second.items(), CanonicalBoard::id)).containsExactly(boards.get(0));
        assertThat(second.cursor()).isNull();
        assertThat(ids(reads().userPins(ana, null, 10).items(), CanonicalPin::id)).containsExactly(onBens, own);
        assertThat(reads().pinCount(ana)).isEqualTo(2);
        assertThat(reads().userPins(newUser(), null, 10)).isEqualTo(new ListPage<>(List.of(), null));
    }

    @Test
    void likesInBothDirectionsNewestFirstWithoutTheUndone() {
        long ana = newUser();
        long ben = newUser();
        long board = newBoard(ana);
        long p1 = newPin(board, ana, T0 + 1);
        long p2 = newPin(board, ana, T0 + 2);
        long p3 = newPin(board, ana, T0 + 3);
        seed().like(ben, p1, T0 + 10, true);
        seed().like(ben, p2, T0 + 11, true);
        seed().like(ben, p3, T0 + 12, true);
        seed().like(ben, p2, T0 + 13, false);
        seed().like(ana, p1, T0 + 14, true);

        ListPage<Liked> first = reads().userLikes(ben, null, 1);
        assertThat(first.items()).containsExactly(new Liked(p3, Instant.ofEpochMilli(T0 + 12)));
        assertThat(reads().userLikes(ben, first.cursor(), 5).items()).containsExactly(new Liked(p1, Instant.ofEpochMilli(T0 + 10)));
        assertThat(ids(reads().pinLikers(p1, null, 5).items(), Liked::id)).containsExactly(ana, ben);
        assertThat(reads().pinLikers(p2, null, 5).items()).isEmpty();
        assertThat(reads().likeCount(ben)).isEqualTo(2);
        assertThat(reads().pin(p1).orElseThrow().likes()).isEqualTo(2);
        assertThat(reads().pin(p2).orElseThrow().likes()).isZero();
    }

    protected long newComment(long pin, long author, long createdAt) {
        long id = ShardedId.compose(ShardedId.decode(pin).shard(), ObjectType.COMMENT, freshLocal());
        seed().comment(id, pin, author, "comment " + id, createdAt);
        return id;
    }

    @Test
    void aPinsCommentsNewestFirstWithoutTheDeletedAndItsCommentCount() {
        long ana = newUser();
        long ben = newUser();
        long board = newBoard(ana);
        long pin = newPin(board, ana, T0 + 1);
        long other = newPin(board, ana, T0 + 2);
        long c1 = newComment(pin, ben, T0 + 10);
        long c2 = newComment(pin, ana, T0 + 11);
        long c3 = newComment(pin, ben, T0 + 12);
        long elsewhere = newComment(other, ben, T0 + 13);
        assertThat(reads().pin(pin).orElseThrow().comments()).isEqualTo(3);
        seed().deleteComment(c2);

        assertThat(reads().comment(c1)).contains(new CanonicalComment(c1, pin, ben, "comment " + c1, Instant.ofEpochMilli(T0 + 10)));
        assertThat(reads().comment(c2)).as("deleted").isEmpty();
        assertThat(reads().comment(ShardedId.compose(5, ObjectType.COMMENT, freshLocal()))).as("unknown").isEmpty();
        ListPage<CanonicalComment> first = reads().pinComments(pin, null, 1);
        assertThat(ids(first.items(), CanonicalComment::id)).containsExactly(c3);
        ListPage<CanonicalComment> rest = reads().pinComments(pin, first.cursor(), 5);
        assertThat(ids(rest.items(), CanonicalComment::id)).containsExactly(c1);
        assertThat(rest.cursor()).isNull();
        assertThat(reads().pin(pin).orElseThrow().comments()).isEqualTo(2);
        assertThat(reads().livePins(List.of(pin, other)).get(other).comments()).isEqualTo(1);
        assertThat(ids(reads().pinComments(other, null, 5).items(), CanonicalComment::id)).containsExactly(elsewhere);
        assertThat(reads().pinComments(newPin(board, ana, T0 + 3), null, 5)).isEqualTo(new ListPage<>(List.of(), null));
        assertThatThrownBy(() -> reads().pinComments(pin, "garbage!", 1)).isInstanceOf(BadCursorException.class);
    }

    @Test
    void cursorsNotIssuedForTheListAreRefused() {
        long ana = newUser();
        long board = newBoard(ana);
        for (int i = 0; i < 3; i++) newPin(board, ana, T0 + i);
        String newest = reads().boardPins(board, BoardPinOrder.NEWEST, 0, null, 1).cursor();
        assertThat(newest).isNotNull().matches("[A-Za-z0-9_-]+");

        assertThatThrownBy(() -> reads().boardPins(board, BoardPinOrder.NEWEST, 0, "garbage!", 1)).isInstanceOf(BadCursorException.class);
        assertThatThrownBy(() -> reads().boardPins(board, BoardPinOrder.CUSTOM, 0, newest, 1)).isInstanceOf(BadCursorException.class);
        assertThatThrownBy(() -> reads().userPins(ana, "bjox", 1)).isInstanceOf(BadCursorException.class);
        assertThatThrownBy(() -> reads().boardPins(board, BoardPinOrder.NEWEST, 5, newest, 1)).isInstanceOf(IllegalArgumentException.class)
                .isNotInstanceOf(BadCursorException.class);
    }
}
