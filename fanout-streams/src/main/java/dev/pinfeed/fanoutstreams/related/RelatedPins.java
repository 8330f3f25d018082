package dev.pinfeed.fanoutstreams.related;

import dev.pinfeed.events.FanoutAction;
import dev.pinfeed.events.FanoutChunk;
import dev.pinfeed.events.FanoutReceiver;
import dev.pinfeed.events.FanoutSource;
import dev.pinfeed.events.PinCreated;
import dev.pinfeed.events.PinDeleted;
import dev.pinfeed.events.PinLiked;
import dev.pinfeed.events.PinUnliked;
import dev.pinfeed.eventsschema.DeadLetters;
import dev.pinfeed.fanoutstreams.PoisonEventException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * Related pins (seed 002: pins that share boards with a pin the user saved, liked or repinned), in three stages, each
 * a pure function of one message and its stage's state:
 * <ol>
 *   <li>{@link #route}: a pin or like event → messages keyed by the pin they are about (a repin also by its parent);</li>
 *   <li>{@link #onPin} (state per pin: {@link PinBoards}): board membership ({@link RelatedMessage.Joined},
 *       {@link RelatedMessage.Left}) and, for a like or a save, one {@link RelatedMessage.Asked} per board of the pin;</li>
 *   <li>{@link #onBoard} (state per board: {@link BoardPins}): membership kept, and an ask answered with one
 *       FanoutChunk per related pin, tagged RELATED, with the acting user as its single receiver.</li>
 * </ol>
 * Membership: a pin is on its own board; a repin R of P onto board B puts P on B (R itself is not listed on its own board:
 * its parent stands for it there). related(P) for user U = the newest pins on P's boards, other than P (and P's parent
 * when P is a repin), not authored by U, at most {@code related.max-per-pin}: the newest {@code max-per-pin} boards of
 * P are asked for {@code max-per-pin / boards} pins each. A save asks every board of P except the one it saved onto (the
 * user's own). An unlike retracts nothing. A user's actions past {@code related.max-actions-per-minute} ask nothing
 * ({@link ActionBudget}; a save still puts the pin on the board). Every other output is a function of the input and the
 * state: its chunk carries the action's eventId, chunk index 0, so a replay sends the same chunks, which the worker's
 * checked path makes idempotent.
 */
public final class RelatedPins {

    private final RelatedSettings settings;
    private final ActionBudget budget;

    public RelatedPins(RelatedSettings settings) {
        this.settings = settings;
        this.budget = new ActionBudget(settings.maxActionsPerMinute());
    }

    /** The per-user bound on actions that ask, shared by every task of this process. */
    public ActionBudget budget() {
        return budget;
    }

    /** Stage 1: what a pins- or likes-topic event says, keyed by the pin it is about; an unlike says nothing. */
    public static List<RelatedMessage> route(SpecificRecord event) {
        if (event instanceof PinCreated c) {
            long at = c.getOccurredAt().toEpochMilli();
            if (c.getParentPinId() == null) return List.of(new RelatedMessage.Created(c.getPinId(), c.getBoardId(), c.getAuthorId(), at, 0));
            long parent = c.getParentPinId();
            return List.of(new RelatedMessage.Created(c.getPinId(), c.getBoardId(), c.getAuthorId(), at, parent),
                    new RelatedMessage.Saved(parent, c.getBoardId(), c.getAuthorId(), c.getEventId(), at));
        } else if (event instanceof PinDeleted d) {
            return List.of(new RelatedMessage.Deleted(d.getPinId()));
        } else if (event instanceof PinLiked l) {
            return List.of(new RelatedMessage.Liked(l.getPinId(), l.getUserId(), l.getEventId(), l.getOccurredAt().toEpochMilli()));
        } else if (event instanceof PinUnliked) {
            return List.of(); // an unlike retracts nothing: what was recommended stays in the pool
        }
        throw new PoisonEventException(DeadLetters.UNEXPECTED_EVENT, event.getSchema().getFullName() + " is neither a pin nor a like event");
    }

    /** Stage 2, over the pins' state: membership for the boards, asks for a like or a save. */
    public List<RelatedMessage> onPin(RelatedMessage message, RelatedState<PinBoards> pins) {
        List<RelatedMessage> out = new ArrayList<>();
        long pinId = message.key();
        PinBoards current = pins.get(pinId);
        if (message instanceof RelatedMessage.Created c) {
            if (current != null && current.known()) return out; // a repeat
            List<Long> savedOnto = current == null ? List.of() : current.boards();
            PinBoards p = new PinBoards(true, c.authorId(), c.boardId(), c.createdAt(), c.parentPinId(), List.of());
            for (int i = savedOnto.size() - 1; i >= 0; i--) p = p.withBoard(savedOnto.get(i), settings.pinBoards());
            p = p.withBoard(c.boardId(), settings.pinBoards());
            pins.put(pinId, p);
            for (long board : p.boards()) {
                if (board == c.boardId() && c.parentPinId() != 0) continue; // a repin: its parent stands for it on its own board
                out.add(new RelatedMessage.Joined(board, p.member(pinId)));
            }
        } else if (message instanceof RelatedMessage.Saved s) {
            PinBoards before = current == null ? PinBoards.UNKNOWN : current;
            PinBoards p = before.withBoard(s.boardId(), settings.pinBoards());
            if (!p.equals(before)) pins.put(pinId, p);
            if (!p.known()) return out; // the save waits in the state for the pin's creation; nothing to ask yet
            out.add(new RelatedMessage.Joined(s.boardId(), p.member(pinId)));
            ask(out, pinId, p, s.userId(), s.eventId(), s.occurredAt(), s.boardId());
        } else if (message instanceof RelatedMessage.Liked l) {
            if (current == null || !current.known()) return out; // deleted, or not seen: nothing is related
            ask(out, pinId, current, l.userId(), l.eventId(), l.occurredAt(), 0);
        } else if (message instanceof RelatedMessage.Deleted) {
            if (current == null) return out;
            pins.delete(pinId);
            for (long board : current.boards()) out.add(new RelatedMessage.Left(board, pinId));
        } else {
            throw new IllegalArgumentException("not a pin-stage message: " + message);
        }
        return out;
    }

    /**
     * One ask per board of the pin (except {@code skipBoard}), the newest max-per-pin boards, sharing max-per-pin between them;
     * none when the user is past his budget.
     */
    private void ask(List<RelatedMessage> out, long pinId, PinBoards p, long user, long eventId, long at, long skipBoard) {
        List<Long> boards = new ArrayList<>();
        for (long b : p.boards()) if (b != skipBoard && boards.size() < settings.maxPerPin()) boards.add(b);
        if (boards.isEmpty() || !budget.tryTake(user, at)) return;
        int each = settings.maxPerPin() / boards.size();
        for (long b : boards) out.add(new RelatedMessage.Asked(b, pinId, p.parentPinId(), user, eventId, at, each));
    }

    /** Stage 3, over the boards' state: membership kept; an ask answered with its related pins as chunks. */
    public List<FanoutChunk> onBoard(RelatedMessage message, RelatedState<BoardPins> boards) {
        long boardId = message.key();
        BoardPins current = boards.get(boardId);
        BoardPins b = current == null ? BoardPins.EMPTY : current;
        if (message instanceof RelatedMessage.Joined j) {
            BoardPins next = b.with(j.pin(), settings.boardPins());
            if (next != b) boards.put(boardId, next);
            return List.of();
        } else if (message instanceof RelatedMessage.Left l) {
            BoardPins next = b.without(l.pinId());
            if (next == b) return List.of();
            if (next.pins().isEmpty()) boards.delete(boardId);
            else boards.put(boardId, next);
            return List.of();
        } else if (message instanceof RelatedMessage.Asked a) {
            List<FanoutChunk> out = new ArrayList<>();
            for (RelatedMessage.Member m : b.pins()) {
                if (out.size() >= a.limit()) break;
                if (m.pinId() == a.subjectPinId() || m.pinId() == a.alsoExcluded() || m.authorId() == a.userId()) continue;
                out.add(chunk(m, a));
            }
            return out;
        }
        throw new IllegalArgumentException("not a board-stage message: " + message);
    }

    /** The related pin {@code m} for the asking user: an ADD of one receiver, RELATED, with the action's eventId and time. */
    static FanoutChunk chunk(RelatedMessage.Member m, RelatedMessage.Asked a) {
        return FanoutChunk.newBuilder()
                .setEventId(a.eventId())
                .setOccurredAt(Instant.ofEpochMilli(a.occurredAt()))
                .setAction(FanoutAction.ADD)
                .setPinId(m.pinId())
                .setBoardId(m.boardId())
                .setAuthorId(m.authorId())
                .setPinCreatedAt(Instant.ofEpochMilli(m.createdAt()))
                .setChunkIndex(0)
                .setLastChunk(true)
                .setReceivers(List.of(new FanoutReceiver(a.userId(), FanoutSource.RELATED)))
                .setParentPinId(null)
                .build();
    }
}
