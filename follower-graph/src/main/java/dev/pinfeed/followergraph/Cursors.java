package dev.pinfeed.followergraph;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Argument checks of the queries, and opaque cursor strings: URL-safe base64 of a small position text, so callers pass them back
 * untouched instead of building them. Positions: {@code s|<since>|<id>} for newest-first lists (the
 * last item returned), {@code e|...} / {@code h|<scan cursor>} for a board's receivers, {@code i|<id>}
 * for id-ordered lists.
 */
final class Cursors {

    private Cursors() {}

    static String encode(String position) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(position.getBytes(StandardCharsets.UTF_8));
    }

    static String decode(String cursor) {
        try {
            return new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid cursor: " + cursor);
        }
    }

    /** Position in a list ordered by (since desc, id desc): the last item already returned. */
    record After(long since, long id) {

        /** True when (since, id) comes after this position in newest-first order. */
        boolean precedes(long since, long id) {
            return since < this.since || (since == this.since && id < this.id);
        }

        String encode() {
            return Cursors.encode("s|" + since + "|" + id);
        }

        static After decode(String cursor) {
            if (cursor == null) return null;
            String position = Cursors.decode(cursor);
            if (!position.startsWith("s|")) throw new IllegalArgumentException("invalid cursor: " + cursor);
            return parse(position.substring(2));
        }

        /** {@code <since>|<id>}. */
        static After parse(String text) {
            String[] p = text.split("\\|");
            try {
                if (p.length == 2) return new After(Long.parseLong(p[0]), Long.parseLong(p[1]));
            } catch (NumberFormatException e) {
                // falls through
            }
            throw new IllegalArgumentException("invalid cursor position: " + text);
        }
    }

    static void checkBatch(java.util.Collection<Long> ids) {
        if (ids.size() > GraphStore.MAX_BATCH) {
            throw new IllegalArgumentException("at most " + GraphStore.MAX_BATCH + " ids, got " + ids.size());
        }
    }

    static int checkLimit(int limit) {
        if (limit < 1 || limit > GraphStore.MAX_PAGE) {
            throw new IllegalArgumentException("limit must be 1.." + GraphStore.MAX_PAGE + ", was " + limit);
        }
        return limit;
    }
}
