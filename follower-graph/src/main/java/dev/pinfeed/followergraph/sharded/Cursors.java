package dev.pinfeed.followergraph.sharded;

import dev.pinfeed.followergraph.GraphStore;
import dev.pinfeed.followergraph.InvalidCursorException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Collection;

/**
 * The only place that makes or reads cursor strings, and the argument checks of the queries. A cursor
 * is the URL-safe base64 of a small position text, so callers pass it back untouched instead of
 * building it; each kind of list has its typed position:
 * <ul>
 *   <li>{@link After} {@code s|<since>|<id>}: newest-first lists, the last item returned;</li>
 *   <li>{@link Receivers}: a board's receivers, in phase 1 {@code e|<since>|<id>} (the owner's
 *       followers, the last one returned) or phase 2 {@code h|<HSCAN cursor>} (the board's follower hash);</li>
 *   <li>{@link AfterId} {@code i|<id>}: lists in ascending id order (the reference model's receivers).</li>
 * </ul>
 * Reading a cursor that does not decode, is another list's, or does not parse throws
 * {@link InvalidCursorException}.
 */
public final class Cursors {

    private Cursors() {}

    /** Position in a list ordered by (since desc, id desc): the last item already returned. */
    public record After(long since, long id) {

        private static final String PHASE = "s";

        /** True when (since, id) comes after this position in newest-first order. */
        public boolean precedes(long since, long id) {
            return since < this.since || (since == this.since && id < this.id);
        }

        public String encode() {
            return Cursors.encode(PHASE, since, id);
        }

        /** Null for a null cursor (the first page). */
        public static After decode(String cursor) {
            if (cursor == null) return null;
            return after(cursor, fields(cursor, PHASE, 2));
        }
    }

    /** Position in a board's receivers: one of its two phases. */
    public sealed interface Receivers permits OwnersFollowers, BoardFollowers {

        String encode();

        /** {@code OwnersFollowers(null)} (the start) for a null cursor. */
        static Receivers decode(String cursor) {
            if (cursor == null) return new OwnersFollowers(null);
            String[] f = fields(cursor);
            if (f[0].equals(OwnersFollowers.PHASE) && f.length == 3) return new OwnersFollowers(after(cursor, f));
            if (f[0].equals(BoardFollowers.PHASE) && f.length == 2) return new BoardFollowers(scanCursor(cursor, f[1]));
            throw new InvalidCursorException(cursor);
        }
    }

    /** Phase 1: the owner's explicit followers newest first, after {@code after} (null: from the start). */
    public record OwnersFollowers(After after) implements Receivers {

        private static final String PHASE = "e";

        @Override
        public String encode() {
            if (after == null) throw new IllegalStateException("the start of a list has no cursor");
            return Cursors.encode(PHASE, after.since(), after.id());
        }
    }

    /** Phase 2: the board's explicit-follower hash, from HSCAN cursor {@code scan} ("0": from the start). */
    public record BoardFollowers(String scan) implements Receivers {

        private static final String PHASE = "h";

        @Override
        public String encode() {
            return Cursors.encode(PHASE, scan);
        }
    }

    /** Position in a list ordered by id ascending: the last id already returned. */
    public record AfterId(long id) {

        private static final String PHASE = "i";

        public String encode() {
            return Cursors.encode(PHASE, id);
        }

        /** Null for a null cursor (the first page). */
        public static AfterId decode(String cursor) {
            if (cursor == null) return null;
            return new AfterId(number(cursor, fields(cursor, PHASE, 1)[1]));
        }
    }

    public static void checkBatch(Collection<Long> ids) {
        if (ids.size() > GraphStore.MAX_BATCH) {
            throw new IllegalArgumentException("at most " + GraphStore.MAX_BATCH + " ids, got " + ids.size());
        }
    }

    public static int checkLimit(int limit) {
        if (limit < 1 || limit > GraphStore.MAX_PAGE) {
            throw new IllegalArgumentException("limit must be 1.." + GraphStore.MAX_PAGE + ", was " + limit);
        }
        return limit;
    }

    // ---------------------------------------------------------------- the string form

    private static final String SEPARATOR = "|";

    private static String encode(String phase, Object... values) {
        StringBuilder text = new StringBuilder(phase);
        for (Object v : values) text.append(SEPARATOR).append(v);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The position's fields, phase first. */
    private static String[] fields(String cursor) {
        try {
            return new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).split("\\|", -1);
        } catch (IllegalArgumentException e) {
            throw new InvalidCursorException(cursor);
        }
    }

    /** The fields of a position that must be of {@code phase} with {@code count} values. */
    private static String[] fields(String cursor, String phase, int count) {
        String[] f = fields(cursor);
        if (!f[0].equals(phase) || f.length != count + 1) throw new InvalidCursorException(cursor);
        return f;
    }

    /** {@code <phase>|<since>|<id>}. */
    private static After after(String cursor, String[] f) {
        return new After(number(cursor, f[1]), number(cursor, f[2]));
    }

    private static long number(String cursor, String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new InvalidCursorException(cursor);
        }
    }

    /** HSCAN cursors are unsigned 64-bit decimals; Redis refuses anything else with an error, so we refuse it first. */
    private static String scanCursor(String cursor, String text) {
        if (text.isEmpty() || !text.chars().allMatch(c -> c >= '0' && c <= '9')) throw new InvalidCursorException(cursor);
        try {
            Long.parseUnsignedLong(text);
        } catch (NumberFormatException e) {
            throw new InvalidCursorException(cursor);
        }
        return text;
    }
}
