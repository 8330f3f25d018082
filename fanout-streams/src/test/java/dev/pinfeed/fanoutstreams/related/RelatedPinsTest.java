package dev.pinfeed.fanoutstreams.related;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pinfeed.events.FanoutAction;
import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.events.FanoutReceiver;
import dev.pinfeed.events.FanoutSource;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinDeleted;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.events.PinUnliked;
import dev.pinfeed.events.UserFollowed;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.fanoutstreams.PoisonEventException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/** The three stages over in-memory state, one event at a time: membership, caps, exclusions, replays. */
class RelatedPinsTest {

    private static final long T0 = 1_767_225_600_000L;
    private static final long A = 10, U = 20, V = 30; // users
    private static final long B = 100, C = 200, D = 300; // boards

    private RelatedPins core = new RelatedPins(RelatedSettings.defaults());
    private final MapState<PinBoards> pins = new MapState<>();
    private final MapState<BoardPins> boards = new MapState<>();
    private long eventIds = 1000;

    private static final class MapState<V> implements RelatedState<V> {
        final Map<Long, V> map = new HashMap<>();
        public V get(long key) { return map.get(key); }
        public void put(long key, V value) { map.put(key, value); }
        public void delete(long key) { map.remove(key); }
    }

    /** The event through route, the pin stage and the board stage, in order; the chunks it sends. */
    private List<FanoutChunk> run(SpecificRecord event) {
        List<FanoutChunk> out = new ArrayList<>();
        for (RelatedMessage toPin : RelatedPins.route(event)) {
            for (RelatedMessage toBoard : core.onPin(toPin, pins)) out.addAll(core.onBoard(toBoard, boards));
        }
        return out;
    }

    private List<FanoutChunk> pin(long pin, long board, long author) {
        long id = eventIds++;
        return run(new PinCreated(id, Instant.ofEpochMilli(T0 + pin), author, pin, board, author, "pin " + pin, null, null, null, java.util.List.of()));
    }

    private List<FanoutChunk> repin(long pin, long parent, long board, long user) {
        long id = eventIds++;
        return run(new PinCreated(id, Instant.ofEpochMilli(T0 + pin), user, pin, board, user, "pin " + parent, null, null, parent, java.util.List.of()));
    }

    private PinLiked like(long user, long pin) {
        return new PinLiked(eventIds++, Instant.ofEpochMilli(T0 + 5_000), user, user, pin);
    }

    private List<FanoutChunk> delete(long pin, long board, long author) {
        return run(new PinDeleted(eventIds++, Instant.ofEpochMilli(T0 + 9_000), author, pin, board, author, java.util.List.of()));
    }

    private static List<Long> pinsOf(List<FanoutChunk> chunks) {
        return chunks.stream().map(FanoutChunk::getPinId).toList();
    }

    @Test
    void aLikeSendsTheNewestOtherPinsOfThePinsBoardToTheLikerAsRelated() {
        pin(1, B, A);
        pin(2, B, A);
        pin(3, B, A);
        PinLiked like = like(U, 1);
        List<FanoutChunk> sent = run(like);
        assertThat(pinsOf(sent)).containsExactly(3L, 2L); // newest first, not the liked pin
        FanoutChunk c = sent.get(0);
        assertThat(c.getAction()).isEqualTo(FanoutAction.ADD);
        assertThat(c.getReceivers()).containsExactly(new FanoutReceiver(U, FanoutSource.RELATED));
        assertThat(c.getEventId()).isEqualTo(like.getEventId());
        assertThat(c.getChunkIndex()).isZero();
        assertThat(c.getLastChunk()).isTrue();
        assertThat(c.getBoardId()).isEqualTo(B);
        assertThat(c.getAuthorId()).isEqualTo(A);
        assertThat(c.getPinCreatedAt()).isEqualTo(Instant.ofEpochMilli(T0 + 3));
        assertThat(c.getParentPinId()).isNull();
        assertThat(run(like)).as("a replay sends the same chunks").isEqualTo(sent);
    }

    @Test
    void theLikersOwnPinsAreNeverRelatedToHim() {
        pin(1, B, A);
        pin(2, B, U); // U's own pin on A's board (a group board)
        pin(3, B, A);
        assertThat(pinsOf(run(like(U, 1)))).containsExactly(3L);
        assertThat(pinsOf(run(like(V, 1)))).containsExactly(3L, 2L);
    }

    @Test
    void aRepinMakesTheParentsBoardsRelatedButNotTheBoardItWasSavedOnto() {
        pin(1, C, A);
        pin(2, C, A);
        pin(3, C, A);
        pin(4, D, U); // U's own board, his own pin
        pin(5, D, V); // someone else's pin on U's board: not asked (the save's own board)
        assertThat(pinsOf(repin(6, 1, D, U))).containsExactly(3L, 2L);
        // The repin put pin 1 on D: someone liking a pin of D now gets it (and not the repin 6 itself).
        assertThat(pinsOf(run(like(V, 4)))).containsExactly(1L);
    }

    @Test
    void likingARepinLeavesOutItsParent() {
        pin(1, C, A);
        pin(2, D, U);
        repin(3, 1, D, U); // 1 joins D; 3 is not listed (1 stands for it)
        assertThat(pinsOf(run(like(V, 3)))).containsExactly(2L);
    }

    @Test
    void boardsKeepTheirNewestPinsAndAnActionSendsAtMostMaxPerPin() {
        core = new RelatedPins(RelatedSettings.defaults().withCaps(3, 20, 2));
        for (long p = 1; p <= 5; p++) pin(p, B, A);
        assertThat(boards.get(B).pins()).extracting(RelatedMessage.Member::pinId).containsExactly(5L, 4L, 3L);
        assertThat(pinsOf(run(like(U, 5)))).containsExactly(4L, 3L);
        assertThat(pinsOf(run(like(U, 1)))).as("pushed out of B's list, 1 still knows its board").containsExactly(5L, 4L);
    }

    @Test
    void aPinOnSeveralBoardsSharesMaxPerPinBetweenItsNewestBoards() {
        core = new RelatedPins(RelatedSettings.defaults().withCaps(50, 2, 4));
        pin(1, B, A);
        for (long p = 10; p < 15; p++) pin(p, B, A);
        for (long p = 20; p < 25; p++) pin(p, C, A);
        for (long p = 30; p < 35; p++) pin(p, D, A);
        repin(40, 1, C, V);
        repin(41, 1, D, V); // pin 1 is on D, C, B; pin-boards 2 keeps D and C
        assertThat(pins.get(1).boards()).containsExactly(D, C);
        assertThat(pinsOf(run(like(U, 1)))).containsExactly(34L, 33L, 24L, 23L);
    }

    @Test
    void aDeletedPinLeavesItsBoardsAndALikeOfItSendsNothing() {
        pin(1, B, A);
        pin(2, B, A);
        repin(3, 2, C, V); // 2 is on C too
        pin(4, C, V);
        assertThat(delete(2, B, A)).isEmpty();
        assertThat(pinsOf(run(like(U, 1)))).isEmpty();
        assertThat(pinsOf(run(like(U, 4)))).isEmpty();
        assertThat(run(like(U, 2))).isEmpty();
        assertThat(pins.get(2)).isNull();
    }

    @Test
    void aSaveSeenBeforeThePinsCreationWaitsForIt() {
        pin(2, C, A);
        assertThat(repin(3, 1, C, V)).isEmpty(); // the parent's PinCreated is late (another partition)
        pin(1, B, A);
        assertThat(boards.get(C).pins()).extracting(RelatedMessage.Member::pinId).containsExactly(1L, 2L);
        assertThat(pinsOf(run(like(U, 1)))).containsExactlyInAnyOrder(2L);
    }

    @Test
    void aRepeatedCreationChangesNothingAndAnUnlikeRetractsNothing() {
        pin(1, B, A);
        pin(2, B, A);
        BoardPins before = boards.get(B);
        pin(1, B, A);
        assertThat(boards.get(B)).isEqualTo(before);
        assertThat(run(new PinUnliked(eventIds++, Instant.ofEpochMilli(T0), U, U, 1L))).isEmpty();
        assertThat(run(like(U, 404))).as("an unknown pin relates nothing").isEmpty();
    }

    @Test
    void aUsersActionsPastHisBudgetAskNothingButASaveStillJoinsTheBoard() {
        core = new RelatedPins(RelatedSettings.defaults().withMaxActionsPerMinute(2));
        pin(1, B, A);
        pin(2, B, A);
        pin(3, C, A);
        assertThat(pinsOf(run(like(U, 1)))).containsExactly(2L);
        assertThat(pinsOf(run(like(U, 2)))).containsExactly(1L);
        assertThat(run(like(U, 1))).as("his third action in the minute").isEmpty();
        assertThat(pinsOf(run(like(V, 1)))).as("another user's budget is his own").containsExactly(2L);
        assertThat(repin(4, 3, B, U)).as("a save past the budget asks nothing").isEmpty();
        assertThat(boards.get(B).pins()).extracting(RelatedMessage.Member::pinId).as("but puts the pin on the board").contains(3L);
        assertThat(core.budget().shed()).isEqualTo(2);
        assertThat(pinsOf(run(new PinLiked(eventIds++, Instant.ofEpochMilli(T0 + 65_000), U, U, 1L))))
                .as("the next minute of his own time").containsExactly(3L, 2L);
    }

    @Test
    void anythingButAPinOrALikeEventIsPoison() {
        assertThatThrownBy(() -> RelatedPins.route(new UserFollowed(1L, Instant.ofEpochMilli(T0), U, U, A)))
                .isInstanceOf(PoisonEventException.class)
                .satisfies(e -> assertThat(((PoisonEventException) e).reason()).isEqualTo(DeadLetters.UNEXPECTED_EVENT));
    }
}
