package dev.pinfeed.canonicalstore.reads;

import java.util.Comparator;

/**
 * The two orders of a board's pins (seed 000: "reverse creation time or user specified ordering").
 * {@link #CUSTOM}: pins the owner's last BoardPinsReordered does not list (added after it) come
 * first, newest first; then the listed pins in the owner's order.
 */
public enum BoardPinOrder {
    NEWEST("newest"),
    CUSTOM("custom");

    /** Newest first: sequence descending, ties by id descending (every list of the store but custom). */
    public static final Comparator<ListEntry> NEWEST_FIRST =
            Comparator.comparingLong(ListEntry::sequence).thenComparingLong(ListEntry::id).reversed();
    /** Unlisted (position null) first, then by position; within a position (or among unlisted) newest first. */
    private static final Comparator<ListEntry> CUSTOM_ORDER =
            Comparator.comparing(ListEntry::position, Comparator.nullsFirst(Comparator.<Integer>naturalOrder())).thenComparing(NEWEST_FIRST);

    private final String wireName;

    BoardPinOrder(String wireName) {
        this.wireName = wireName;
    }

    /** {@code newest} or {@code custom}, as in URLs and cache keys. */
    public String wireName() {
        return wireName;
    }

    public Comparator<ListEntry> comparator() {
        return this == NEWEST ? NEWEST_FIRST : CUSTOM_ORDER;
    }

    /** @throws IllegalArgumentException for anything but {@code newest} or {@code custom} */
    public static BoardPinOrder parse(String text) {
        for (BoardPinOrder o : values()) if (o.wireName.equals(text)) return o;
        throw new IllegalArgumentException("order must be newest or custom, got '" + text + "'");
    }
}
