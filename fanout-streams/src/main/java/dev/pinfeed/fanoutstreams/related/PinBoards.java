package dev.pinfeed.fanoutstreams.related;

import java.util.ArrayList;
import java.util.List;

/**
 * The pin stage's state of one pin: its facts once its PinCreated was seen ({@code known}), and the boards it is on,
 * newest first, at most {@code related.pin-boards}: its own board, then those it was saved onto. A save seen before the
 * pin's own creation is kept here (with {@code known} false) until the creation arrives.
 *
 * @param parentPinId 0 unless the pin is a repin (a repin is listed on boards only where it is saved in turn: on its
 *                    own board its parent stands for it)
 */
public record PinBoards(boolean known, long authorId, long boardId, long createdAt, long parentPinId, List<Long> boards) {

    public PinBoards {
        boards = List.copyOf(boards);
    }

    /** Nothing known of the pin yet, no board. */
    public static final PinBoards UNKNOWN = new PinBoards(false, 0, 0, 0, 0, List.of());

    /** The pin as a board lists it; only when {@link #known}. */
    public RelatedMessage.Member member(long pinId) {
        return new RelatedMessage.Member(pinId, boardId, authorId, createdAt);
    }

    /** With {@code board} first (it is the newest), once; at most {@code cap} boards (the oldest leave). */
    public PinBoards withBoard(long board, int cap) {
        List<Long> next = new ArrayList<>(boards.size() + 1);
        next.add(board);
        for (long b : boards) if (b != board && next.size() < cap) next.add(b);
        return new PinBoards(known, authorId, boardId, createdAt, parentPinId, next);
    }
}
