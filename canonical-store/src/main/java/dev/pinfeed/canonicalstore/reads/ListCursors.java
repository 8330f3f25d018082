package dev.pinfeed.canonicalstore.reads;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The only owner of the canonical lists' cursors: the sort key of the last item served, base64url
 * without padding, so the next page starts strictly after it (a keyset, not an offset: pins added
 * meanwhile sort before it and shift nothing).
 * <pre>
 * n:&lt;sequence&gt;:&lt;id&gt;              newest first (board pins newest, user boards, user pins, likers, likes)
 * c:&lt;position|-&gt;:&lt;sequence&gt;:&lt;id&gt;  a board's custom order ("-": a pin the owner's order does not list)
 * </pre>
 */
public final class ListCursors {

    private static final Pattern NEWEST = Pattern.compile("n:(\\d{1,19}):(\\d{1,19})");
    private static final Pattern CUSTOM = Pattern.compile("c:(-|\\d{1,10}):(\\d{1,19}):(\\d{1,19})");

    private ListCursors() {}

    /** The cursor of a page whose last item is {@code last}, in a newest-first list. */
    public static String newest(ListEntry last) {
        return encode("n:" + last.sequence() + ":" + last.id());
    }

    public static String of(BoardPinOrder order, ListEntry last) {
        if (order == BoardPinOrder.NEWEST) return newest(last);
        return encode("c:" + (last.position() == null ? "-" : last.position()) + ":" + last.sequence() + ":" + last.id());
    }

    /** The position a newest-first cursor names; null for a null cursor. */
    public static ListEntry parseNewest(String cursor) {
        return parse(BoardPinOrder.NEWEST, cursor);
    }

    /** The position a cursor of {@code order} names; null for a null cursor; {@link BadCursorException} otherwise. */
    public static ListEntry parse(BoardPinOrder order, String cursor) {
        if (cursor == null) return null;
        String text = decode(cursor);
        try {
            if (order == BoardPinOrder.NEWEST) {
                Matcher m = NEWEST.matcher(text);
                if (m.matches()) return ListEntry.newest(Long.parseLong(m.group(2)), Long.parseLong(m.group(1)));
            } else {
                Matcher m = CUSTOM.matcher(text);
                if (m.matches()) {
                    Integer position = m.group(1).equals("-") ? null : Integer.valueOf(m.group(1));
                    return new ListEntry(Long.parseLong(m.group(3)), Long.parseLong(m.group(2)), position);
                }
            }
        } catch (NumberFormatException e) {
            // out of range: falls through to the error below
        }
        throw new BadCursorException("cursor was not issued for this list (order " + order.wireName() + ")");
    }

    private static String encode(String text) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.US_ASCII));
    }

    private static String decode(String cursor) {
        try {
            return new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.US_ASCII);
        } catch (IllegalArgumentException e) {
            throw new BadCursorException("cursor is not one this service issued");
        }
    }
}
