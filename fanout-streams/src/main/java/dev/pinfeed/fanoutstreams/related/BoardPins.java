package dev.pinfeed.fanoutstreams.related;

import java.util.ArrayList;
import java.util.List;

/** The board stage's state of one board: its newest pins, newest first, at most {@code related.board-pins}. */
public record BoardPins(List<RelatedMessage.Member> pins) {

    public BoardPins {
        pins = List.copyOf(pins);
    }

    public static final BoardPins EMPTY = new BoardPins(List.of());

    /** With {@code pin} first, at most {@code cap} pins; unchanged (the same object) when the pin is listed already. */
    public BoardPins with(RelatedMessage.Member pin, int cap) {
        for (RelatedMessage.Member m : pins) if (m.pinId() == pin.pinId()) return this;
        List<RelatedMessage.Member> next = new ArrayList<>(Math.min(cap, pins.size() + 1));
        next.add(pin);
        for (RelatedMessage.Member m : pins) if (next.size() < cap) next.add(m);
        return new BoardPins(next);
    }

    /** Without {@code pinId}; the same object when it was not listed. */
    public BoardPins without(long pinId) {
        List<RelatedMessage.Member> next = new ArrayList<>(pins.size());
        for (RelatedMessage.Member m : pins) if (m.pinId() != pinId) next.add(m);
        return next.size() == pins.size() ? this : new BoardPins(next);
    }
}
