package dev.pinfeed.feedworker.canonical;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pinfeed.canonicalstore.reads.CanonicalSeed;
import dev.pinfeed.feedworker.CanonicalPins;
import dev.pinfeed.feedstore.scoring.PinFacts;
import dev.pinfeed.idallocator.ObjectType;
import dev.pinfeed.idallocator.ShardedId;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What the worker's {@link CanonicalPins} answers, seeded through canonical-store's own
 * {@link CanonicalSeed}: run over its in-memory store (unit) and over MySQL (IT).
 */
public abstract class CanonicalPinsContract {

    protected static final long T0 = 1_767_225_600_000L;

    protected abstract CanonicalPins pins();

    protected abstract CanonicalSeed seed();

    /** A local id no other test (or run) used. */
    protected abstract long freshLocal();

    private long user() {
        long local = freshLocal();
        long id = ShardedId.compose((int) (local % 4096), ObjectType.USER, local);
        seed().user(id, "fw" + Long.toString(local, 36), null, T0);
        return id;
    }

    private long board(long owner) {
        long id = ShardedId.compose(ShardedId.decode(owner).shard(), ObjectType.BOARD, freshLocal());
        seed().board(id, owner, "board", null, T0);
        return id;
    }

    private PinFacts pin(long board, long author, long createdAt) {
        long id = ShardedId.compose(ShardedId.decode(board).shard(), ObjectType.PIN, freshLocal());
        seed().pin(id, board, author, "pin", null, null, createdAt);
        return new PinFacts(id, board, author, createdAt);
    }

    @Test
    void eachUsersNewestLivePinsComeNewestFirstUpToTheLimit() {
        long u = user();
        long b1 = board(u);
        long b2 = board(u);
        PinFacts first = pin(b1, u, T0 + 1_000);
        PinFacts third = pin(b2, u, T0 + 3_000);
        PinFacts second = pin(b1, u, T0 + 2_000);
        PinFacts deleted = pin(b1, u, T0 + 4_000);
        seed().deletePin(deleted.pinId());
        pin(board(user()), user(), T0 + 5_000); // someone else's

        long idle = user();
        long other = user();
        PinFacts others = pin(board(other), other, T0 + 6_000);
        long neighbour = ShardedId.compose(ShardedId.decode(u).shard(), ObjectType.USER, freshLocal()); // u's shard
        seed().user(neighbour, "fw" + Long.toString(neighbour, 36), null, T0);
        PinFacts neighbours = pin(board(neighbour), neighbour, T0 + 7_000);
        PinFacts neighboursOnUs = pin(b2, neighbour, T0 + 8_000); // on u's board: the author's list, not the board owner's

        assertThat(pins().newestOfUsers(List.of(u, idle, other, neighbour, u), 2)).containsOnlyKeys(u, idle, other, neighbour)
                .containsEntry(u, List.of(third, second)).containsEntry(idle, List.of()).containsEntry(other, List.of(others))
                .containsEntry(neighbour, List.of(neighboursOnUs, neighbours));
        assertThat(pins().newestOfUsers(List.of(u), 10)).containsEntry(u, List.of(third, second, first));
        assertThat(pins().newestOfUsers(List.of(u, idle), 0)).containsEntry(u, List.of()).containsEntry(idle, List.of());
        assertThat(pins().newestOfUsers(List.of(), 10)).isEmpty();
    }

    @Test
    void aBoardsNewestLivePinsComeNewestFirstUpToTheLimit() {
        long u = user();
        long b = board(u);
        PinFacts older = pin(b, u, T0 + 1_000);
        PinFacts newer = pin(b, u, T0 + 2_000);
        pin(board(u), u, T0 + 3_000); // another board
        PinFacts deleted = pin(b, u, T0 + 4_000);
        seed().deletePin(deleted.pinId());

        assertThat(pins().newestOfBoard(b, 10)).containsExactly(newer, older);
        assertThat(pins().newestOfBoard(b, 1)).containsExactly(newer);
    }

    @Test
    void pinsTellLiveDeletedAndUnknownPinsApart() {
        long u = user();
        long b = board(u);
        PinFacts live = pin(b, u, T0);
        PinFacts deleted = pin(b, u, T0);
        seed().deletePin(deleted.pinId());
        long unknown = ShardedId.compose(ShardedId.decode(b).shard(), ObjectType.PIN, freshLocal());

        var got = pins().pins(List.of(live.pinId(), deleted.pinId(), unknown));
        assertThat(got).containsEntry(live.pinId(), Optional.of(live)).containsEntry(deleted.pinId(), Optional.empty())
                .doesNotContainKey(unknown);
        assertThat(pins().pins(List.of())).isEmpty();
    }

    @Test
    void interestsOfLivePinsInTheirOrderNoneForAnUntaggedPinAndDeletedOnesAbsent() {
        long u = user();
        long b = board(u);
        PinFacts tagged = pin(b, u, T0);
        PinFacts plain = pin(b, u, T0);
        PinFacts deleted = pin(b, u, T0);
        long wood = ShardedId.compose(ShardedId.decode(u).shard(), ObjectType.INTEREST, freshLocal());
        long clay = ShardedId.compose(ShardedId.decode(u).shard(), ObjectType.INTEREST, freshLocal());
        seed().tagPin(clay, tagged.pinId(), T0);
        seed().tagPin(wood, tagged.pinId(), T0);
        seed().tagPin(wood, deleted.pinId(), T0);
        seed().deletePin(deleted.pinId());

        var got = pins().interestsOf(List.of(tagged.pinId(), plain.pinId(), deleted.pinId()));
        assertThat(got).containsEntry(tagged.pinId(), List.of(clay, wood)).containsEntry(plain.pinId(), List.of())
                .doesNotContainKey(deleted.pinId());
        assertThat(pins().interestsOf(List.of())).isEmpty();
    }

    @Test
    void likeCountsCountTheUsersWhoLikeAPinNow() {
        long u = user();
        PinFacts p = pin(board(u), u, T0);
        PinFacts quiet = pin(board(u), u, T0);
        long a = user(), b = user(), c = user();
        seed().like(a, p.pinId(), T0 + 1, true);
        seed().like(b, p.pinId(), T0 + 2, true);
        seed().like(c, p.pinId(), T0 + 3, true);
        seed().like(b, p.pinId(), T0 + 4, false);

        var counts = pins().likeCounts(List.of(p.pinId(), quiet.pinId()));
        assertThat(counts.get(p.pinId())).isEqualTo(2);
        assertThat(counts.getOrDefault(quiet.pinId(), 0L)).isZero();
    }
}
