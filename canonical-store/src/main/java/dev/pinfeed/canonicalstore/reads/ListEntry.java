package dev.pinfeed.canonicalstore.reads;

/**
 * One row of a mapping list: the id it points to and its sort key — {@code sequence} (creation time
 * in ms, newer is higher) and, in a board's custom order, {@code position} (null: not in the owner's order).
 */
public record ListEntry(long id, long sequence, Integer position) {

    public static ListEntry newest(long id, long sequence) {
        return new ListEntry(id, sequence, null);
    }
}
